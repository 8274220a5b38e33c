import assert from "node:assert/strict";
import { diff, DiffOp } from "../src/diff.ts";

// src/patch.ts is the new module; import lazily so a missing module fails only these tests.
const load = () => import("../src/patch.ts");

const A = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m"];
const B = ["a", "B", "c", "d", "e", "f", "g", "h", "i", "j", "k", "m", "n"];

Deno.test("applyPatch turns a into b", async () => {
  const { applyPatch } = await load();
  assert.deepEqual(applyPatch(A, diff(A, B)), B);
  assert.deepEqual(applyPatch([], diff([], [1, 2])), [1, 2]);
  assert.deepEqual(applyPatch([1, 2], diff([1, 2], [])), []);
});

Deno.test("applyPatch rejects a mismatching source", async () => {
  const { applyPatch, PatchError } = await load();
  const ops = diff(["x", "y", "z"], ["x", "z"]);
  assert.throws(
    () => applyPatch(["x", "q", "z"], ops),
    (e: unknown) => e instanceof PatchError && e.index === 1,
  );
  assert.throws(() => applyPatch(["x", "y", "z", "extra"], ops), PatchError);
  assert.throws(() => applyPatch(["x", "y"], ops), PatchError);
});

Deno.test("applyPatch uses the given equality and keeps source items", async () => {
  const { applyPatch } = await load();
  const eq = (p: { id: number }, q: { id: number }) => p.id === q.id;
  const before = [{ id: 1, v: "old" }, { id: 2, v: "old" }];
  const ops = diff([{ id: 1, v: "x" }, { id: 2, v: "x" }], [{ id: 2, v: "x" }], eq);
  const out = applyPatch(before, ops, eq);
  assert.equal(out.length, 1);
  assert.equal(out[0], before[1]);
});

Deno.test("invertPatch undoes a patch", async () => {
  const { applyPatch, invertPatch } = await load();
  assert.deepEqual(applyPatch(B, invertPatch(diff(A, B))), A);
  const ops: DiffOp<string>[] = [
    { type: "equal", items: ["a"] },
    { type: "delete", items: ["b"] },
    { type: "insert", items: ["x", "y"] },
  ];
  assert.deepEqual(invertPatch(ops), [
    { type: "equal", items: ["a"] },
    { type: "delete", items: ["x", "y"] },
    { type: "insert", items: ["b"] },
  ]);
  assert.equal(ops[1].type, "delete");
});

Deno.test("hunks keep context around changes", async () => {
  const { hunks } = await load();
  const hs = hunks(diff(A, B), 2);
  assert.equal(hs.length, 2);
  assert.deepEqual(hs[0], {
    oldStart: 0,
    oldLength: 4,
    newStart: 0,
    newLength: 4,
    ops: [
      { type: "equal", items: ["a"] },
      { type: "delete", items: ["b"] },
      { type: "insert", items: ["B"] },
      { type: "equal", items: ["c", "d"] },
    ],
  });
  assert.deepEqual(hs[1], {
    oldStart: 9,
    oldLength: 4,
    newStart: 9,
    newLength: 4,
    ops: [
      { type: "equal", items: ["j", "k"] },
      { type: "delete", items: ["l"] },
      { type: "equal", items: ["m"] },
      { type: "insert", items: ["n"] },
    ],
  });
});

Deno.test("close changes share one hunk", async () => {
  const { hunks } = await load();
  const hs = hunks(diff(A, B), 5);
  assert.equal(hunks(diff(A, B), 4).length, 2);
  assert.equal(hs.length, 1);
  assert.equal(hs[0].oldStart, 0);
  assert.equal(hs[0].oldLength, 13);
  assert.equal(hs[0].newLength, 13);
  const three = hunks(diff(A, B));
  assert.equal(three.length, 2);
  assert.deepEqual([three[1].oldStart, three[1].oldLength, three[1].newStart, three[1].newLength], [8, 5, 8, 5]);
});

Deno.test("hunks with zero context and no changes", async () => {
  const { hunks } = await load();
  assert.deepEqual(hunks(diff(A, A)), []);
  assert.deepEqual(hunks(diff(["p", "q"], ["p", "r", "q"]), 0), [
    { oldStart: 1, oldLength: 0, newStart: 1, newLength: 1, ops: [{ type: "insert", items: ["r"] }] },
  ]);
});

Deno.test("existing diff output is unchanged", () => {
  assert.deepEqual(diff([1, 2, 3], [1, 3]), [
    { type: "equal", items: [1] },
    { type: "delete", items: [2] },
    { type: "equal", items: [3] },
  ]);
});
