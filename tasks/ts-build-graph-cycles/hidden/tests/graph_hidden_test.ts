import assert from "node:assert/strict";
import { DepGraph } from "../src/graph.ts";
import { buildLayers, buildOrder } from "../src/toposort.ts";
import { CycleError, findCycle } from "../src/cycle.ts";

function declaredTwice(): DepGraph {
  // the same edge comes from two manifests
  return new DepGraph()
    .addDependency("app", "lib")
    .addDependency("app", "lib")
    .addDependency("app", "util")
    .addDependency("util", "base");
}

Deno.test("duplicate dependency declarations do not break the order", () => {
  const order = buildOrder(declaredTwice());
  assert.deepEqual(order, ["base", "lib", "util", "app"]);
});

Deno.test("duplicate declarations do not break layers", () => {
  assert.deepEqual(buildLayers(declaredTwice()), [["base", "lib"], ["util"], ["app"]]);
});

Deno.test("dependents are listed once", () => {
  assert.deepEqual(declaredTwice().dependentsOf("lib"), ["app"]);
});

Deno.test("cycle path only contains the cycle", () => {
  const g = new DepGraph()
    .addDependency("app", "core")
    .addDependency("core", "util")
    .addDependency("util", "core");
  assert.deepEqual(findCycle(g), ["core", "util", "core"]);
  assert.throws(
    () => buildOrder(g),
    (e: unknown) => e instanceof CycleError && e.message === "dependency cycle: core -> util -> core",
  );
});

Deno.test("self dependency is a one-node cycle", () => {
  const g = new DepGraph().addDependency("a", "b").addDependency("b", "b");
  assert.deepEqual(findCycle(g), ["b", "b"]);
});

Deno.test("acyclic graphs have no cycle", () => {
  assert.equal(findCycle(declaredTwice()), null);
});

Deno.test("removing a node after duplicate edges cleans up", () => {
  const g = declaredTwice().removeNode("app");
  assert.deepEqual(g.dependentsOf("lib"), []);
  assert.deepEqual(buildOrder(g), ["base", "lib", "util"]);
});
