import assert from "node:assert/strict";
import { Graph, routeTo, shortestPaths } from "../src/mod.ts";

function sample(): Graph {
  return new Graph()
    .addEdge("A", "B", 4)
    .addEdge("A", "C", 1)
    .addEdge("C", "B", 2)
    .addEdge("B", "D", 5)
    .addNode("Z");
}

Deno.test("shortestPaths finds the cheapest distances", () => {
  const { distance } = shortestPaths(sample(), "A");
  assert.equal(distance.get("B"), 3);
  assert.equal(distance.get("D"), 8);
  assert.equal(distance.has("Z"), false);
});

Deno.test("routeTo reads the route back", () => {
  const route = routeTo(shortestPaths(sample(), "A"), "D");
  assert.deepEqual(route?.nodes, ["A", "C", "B", "D"]);
  assert.equal(route?.total, 8);
  assert.equal(routeTo(shortestPaths(sample(), "A"), "Z"), null);
});

Deno.test("Graph rejects negative weights", () => {
  assert.throws(() => new Graph().addEdge("A", "B", -1), /non-negative/);
});
