import assert from "node:assert/strict";
import { Layout, parseSeatId, quote } from "../src/mod.ts";

const layout = new Layout([
  { name: "stalls", rows: { A: 4, B: 6 }, accessible: ["A-1"] },
  { name: "circle", rows: { C: 3 } },
]);

Deno.test("Layout lists seats in row order", () => {
  assert.equal(layout.seats.length, 13);
  assert.deepEqual(layout.row("C").map((s) => s.id), ["C-1", "C-2", "C-3"]);
  assert.equal(layout.seat("A-1").accessible, true);
});

Deno.test("parseSeatId splits row and number", () => {
  assert.deepEqual(parseSeatId("AB-12"), { row: "AB", number: 12 });
  assert.throws(() => parseSeatId("A-0"), /bad seat id/);
});

Deno.test("quote prices sections, accessible seats and the fee", () => {
  const q = quote(layout, { stalls: 4000, circle: 2500 }, ["A-1", "A-2", "C-1"]);
  assert.deepEqual(q.lines.map((l) => l.cents), [2000, 4000, 2500]);
  assert.equal(q.totalCents, 8750);
});
