import assert from "node:assert/strict";
import { CycleError, dagShortestPaths, Graph, topologicalSort } from "../src/mod.ts";

Deno.test("topologicalSort keeps insertion order among ready nodes", () => {
  const g = new Graph().addEdge("shirt", "tie").addEdge("tie", "jacket").addEdge("pants", "shoes").addNode("watch");
  assert.deepEqual(topologicalSort(g), ["shirt", "pants", "watch", "tie", "shoes", "jacket"]);
});

Deno.test("cycles are reported", () => {
  const g = new Graph().addEdge("a", "b").addEdge("b", "a").addEdge("x", "a");
  assert.throws(() => topologicalSort(g), (e: unknown) => e instanceof CycleError && e.remaining.join() === "a,b");
});

Deno.test("dagShortestPaths allows negative weights", () => {
  const g = new Graph().addEdge("s", "a", 2).addEdge("a", "b", -3).addEdge("s", "b", 1);
  assert.deepEqual([...dagShortestPaths(g, "s")], [["s", 0], ["a", 2], ["b", -1]]);
});
