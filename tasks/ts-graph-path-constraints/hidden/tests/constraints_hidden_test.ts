import assert from "node:assert/strict";
import { Graph, shortestPath } from "../src/mod.ts";
import { flights } from "./fixtures.ts";

Deno.test("maxHops 2 needs the direct leg to AMS", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { maxHops: 2 }), { cost: 7, path: ["OSL", "AMS", "LIS"] });
});

Deno.test("maxHops 1 takes the direct flight", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { maxHops: 1 }), { cost: 11, path: ["OSL", "LIS"] });
});

Deno.test("maxHops 0 only reaches the start", () => {
  assert.equal(shortestPath(flights(), "OSL", "LIS", { maxHops: 0 }), null);
  assert.deepEqual(shortestPath(flights(), "OSL", "OSL", { maxHops: 0 }), { cost: 0, path: ["OSL"] });
});

Deno.test("avoiding a hub", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { avoid: ["AMS"] }), { cost: 9, path: ["OSL", "CPH", "LIS"] });
});

Deno.test("avoid and maxHops together", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { avoid: new Set(["CPH"]), maxHops: 2 }), {
    cost: 7,
    path: ["OSL", "AMS", "LIS"],
  });
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { avoid: ["AMS", "CPH", "FRA"] }), { cost: 11, path: ["OSL", "LIS"] });
});

Deno.test("avoiding an endpoint gives null", () => {
  assert.equal(shortestPath(flights(), "OSL", "LIS", { avoid: ["LIS"] }), null);
  assert.equal(shortestPath(flights(), "OSL", "LIS", { avoid: ["OSL"] }), null);
});

Deno.test("invalid maxHops is a RangeError", () => {
  assert.throws(() => shortestPath(flights(), "OSL", "LIS", { maxHops: -1 }), RangeError);
  assert.throws(() => shortestPath(flights(), "OSL", "LIS", { maxHops: 1.5 }), RangeError);
});

Deno.test("a hop limit on a longer chain", () => {
  const g = new Graph();
  for (let i = 0; i < 6; i++) g.addEdge(`n${i}`, `n${i + 1}`, 1);
  g.addEdge("n0", "n3", 5).addEdge("n3", "n6", 4);
  assert.deepEqual(shortestPath(g, "n0", "n6", { maxHops: 4 }), { cost: 7, path: ["n0", "n1", "n2", "n3", "n6"] });
  assert.deepEqual(shortestPath(g, "n0", "n6", { maxHops: 2 }), { cost: 9, path: ["n0", "n3", "n6"] });
});

Deno.test("options that do not bind change nothing", () => {
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", { maxHops: 10, avoid: [] }), { cost: 6, path: ["OSL", "CPH", "AMS", "LIS"] });
  assert.deepEqual(shortestPath(flights(), "OSL", "LIS", {}), { cost: 6, path: ["OSL", "CPH", "AMS", "LIS"] });
});
