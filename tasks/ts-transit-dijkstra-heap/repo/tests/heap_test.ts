import assert from "node:assert/strict";
import { ascending, BinaryHeap, topK } from "../src/mod.ts";

Deno.test("BinaryHeap pops in ascending order", () => {
  const heap = new BinaryHeap(ascending);
  for (const x of [7, 3, 9, 1, 4]) heap.push(x);
  assert.equal(heap.peek(), 1);
  assert.deepEqual(heap.drain(), [1, 3, 4, 7, 9]);
  assert.equal(heap.pop(), undefined);
});

Deno.test("BinaryHeap heapifies its initial items", () => {
  assert.deepEqual(new BinaryHeap(ascending, [5, 2, 8, 1, 9, 3]).drain(), [1, 2, 3, 5, 8, 9]);
});

Deno.test("BinaryHeap works as a max-heap with a reversed comparator", () => {
  const heap = new BinaryHeap<number>((a, b) => b - a, [2, 6, 4]);
  assert.equal(heap.pop(), 6);
  assert.equal(heap.size, 2);
});

Deno.test("topK keeps the best items, best first", () => {
  assert.deepEqual(topK([5, 1, 9, 3, 7, 2, 8], 3, (x) => x), [9, 8, 7]);
  assert.deepEqual(topK([1, 2], 0, (x) => x), []);
});
