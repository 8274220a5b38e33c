import assert from "node:assert/strict";
import { Graph, MinHeap, NegativeWeightError, shortestPath } from "../src/mod.ts";
import { flights } from "./fixtures.ts";

Deno.test("MinHeap pops in priority order", () => {
  const heap = new MinHeap<string>();
  for (const [v, p] of [["c", 3], ["a", 1], ["d", 4], ["b", 2]] as const) heap.push(v, p);
  assert.deepEqual([heap.pop()!.value, heap.pop()!.value, heap.pop()!.value], ["a", "b", "c"]);
});

Deno.test("shortestPath finds the cheapest route", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS"), { cost: 6, path: ["OSL", "CPH", "AMS", "LIS"] });
});

Deno.test("unreachable and unknown nodes", () => {
  assert.equal(shortestPath(flights(), "LIS", "OSL"), null);
  assert.equal(shortestPath(flights(), "OSL", "JFK"), null);
  assert.deepEqual(shortestPath(flights(), "OSL", "OSL"), { cost: 0, path: ["OSL"] });
});

Deno.test("undirected graphs go both ways", () => {
  const g = new Graph(false).addEdge("a", "b", 1).addEdge("b", "c", 1);
  assert.deepEqual(shortestPath(g, "c", "a")?.path, ["c", "b", "a"]);
});

Deno.test("negative weights are rejected", () => {
  assert.throws(() => shortestPath(new Graph().addEdge("a", "b", -1), "a", "b"), NegativeWeightError);
});
