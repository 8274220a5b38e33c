import assert from "node:assert/strict";
import { ascending, BinaryHeap, buildNetwork, Graph, planTrip, shortestPaths, topK } from "../src/mod.ts";

function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647) % 1000;
}

Deno.test("BinaryHeap drains four pushed items in order", () => {
  const heap = new BinaryHeap(ascending);
  for (const x of [8, 15, 4, 19]) heap.push(x);
  assert.deepEqual(heap.drain(), [4, 8, 15, 19]);
});

Deno.test("BinaryHeap drains six pushed items in order", () => {
  const heap = new BinaryHeap(ascending);
  for (const x of [5, 18, 3, 9, 2, 5]) heap.push(x);
  assert.deepEqual(heap.drain(), [2, 3, 5, 5, 9, 18]);
});

Deno.test("BinaryHeap sorts a long pseudo-random sequence", () => {
  const next = lcg(42);
  const values = Array.from({ length: 300 }, next);
  const heap = new BinaryHeap(ascending, values.slice(0, 150));
  for (const v of values.slice(150)) heap.push(v);
  assert.deepEqual(heap.drain(), [...values].sort((a, b) => a - b));
});

Deno.test("topK returns the best five of a long sequence", () => {
  const next = lcg(7);
  const values = Array.from({ length: 200 }, next);
  assert.deepEqual(topK(values, 5, (x) => x), [...values].sort((a, b) => b - a).slice(0, 5));
});

Deno.test("shortestPaths settles nodes at their true distance", () => {
  const graph = new Graph()
    .addEdge("A", "C", 1).addEdge("A", "D", 8).addEdge("D", "B", 1)
    .addEdge("D", "A", 4).addEdge("A", "D", 2).addEdge("A", "B", 9);
  assert.equal(shortestPaths(graph, "A").distance.get("B"), 3);
});

Deno.test("planTrip finds the faster route with two transfers", () => {
  const network = buildNetwork([
    { name: "Red", stops: ["Airport", "Central", "Museum", "Harbor"], minutes: [7, 4, 5] },
    { name: "Blue", stops: ["Central", "Park", "University"], minutes: [9, 6] },
    { name: "Green", stops: ["Museum", "Park", "Stadium"], minutes: [7, 9] },
  ]);
  assert.equal(planTrip(network, "Harbor", "University")?.minutes, 26);
});

Deno.test("BinaryHeap pops a single item", () => {
  const heap = new BinaryHeap(ascending, [3]);
  assert.equal(heap.pop(), 3);
  assert.equal(heap.isEmpty(), true);
});
