import { test } from "node:test";
import assert from "node:assert/strict";
import { Heap } from "../src/index.js";

test("pops numbers in ascending order", () => {
  const heap = new Heap((a, b) => a - b);
  for (const n of [5, 1, 4, 2, 3, 9, 0]) heap.push(n);
  const out = [];
  while (heap.size > 0) out.push(heap.pop());
  assert.deepEqual(out, [0, 1, 2, 3, 4, 5, 9]);
});

test("removeWhere keeps the rest in order", () => {
  const heap = new Heap((a, b) => a - b);
  for (const n of [3, 1, 2, 6, 5]) heap.push(n);
  assert.equal(heap.removeWhere((n) => n % 2 === 0), 2);
  assert.deepEqual([heap.pop(), heap.pop(), heap.pop(), heap.pop()], [1, 3, 5, undefined]);
});
