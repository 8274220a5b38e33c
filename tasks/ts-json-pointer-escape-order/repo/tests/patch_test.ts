import assert from "node:assert/strict";
import { applyPatch } from "../src/patch.ts";
import { PatchError } from "../src/errors.ts";

Deno.test("add inserts into objects and arrays", () => {
  const doc = { foo: ["bar", "baz"] };
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/foo/1", value: "qux" }]), {
    foo: ["bar", "qux", "baz"],
  });
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/foo/-", value: "end" }]), {
    foo: ["bar", "baz", "end"],
  });
  assert.deepEqual(applyPatch(doc, [{ op: "add", path: "/x", value: 1 }]), {
    foo: ["bar", "baz"],
    x: 1,
  });
});

Deno.test("applyPatch never mutates its input", () => {
  const doc = { a: { b: 1 } };
  applyPatch(doc, [{ op: "replace", path: "/a/b", value: 2 }]);
  assert.deepEqual(doc, { a: { b: 1 } });
});

Deno.test("remove, replace, move and copy", () => {
  const doc = { a: 1, b: [1, 2, 3], c: { d: "x" } };
  assert.deepEqual(
    applyPatch(doc, [
      { op: "remove", path: "/b/0" },
      { op: "replace", path: "/a", value: 10 },
      { op: "move", from: "/c/d", path: "/e" },
      { op: "copy", from: "/a", path: "/c/f" },
    ]),
    { a: 10, b: [2, 3], c: { f: 10 }, e: "x" },
  );
});

Deno.test("test operation compares structurally", () => {
  const doc = { a: [1, { b: 2 }] };
  assert.deepEqual(applyPatch(doc, [{ op: "test", path: "/a", value: [1, { b: 2 }] }]), doc);
  assert.throws(
    () => applyPatch(doc, [{ op: "test", path: "/a/1/b", value: 3 }]),
    (e: unknown) => e instanceof PatchError && e.code === "test_failed",
  );
});
