import assert from "node:assert/strict";
import { DepGraph } from "../src/graph.ts";
import { affected, buildLayers, buildOrder } from "../src/toposort.ts";
import { CycleError } from "../src/cycle.ts";

function workspace(): DepGraph {
  return new DepGraph()
    .addDependency("app", "ui")
    .addDependency("app", "api")
    .addDependency("ui", "core")
    .addDependency("api", "core")
    .addDependency("api", "db")
    .addNode("docs");
}

Deno.test("build order puts dependencies first", () => {
  assert.deepEqual(buildOrder(workspace()), ["core", "db", "api", "docs", "ui", "app"]);
});

Deno.test("layers group independent nodes", () => {
  assert.deepEqual(buildLayers(workspace()), [["core", "db", "docs"], ["api", "ui"], ["app"]]);
});

Deno.test("affected lists transitive dependents", () => {
  assert.deepEqual(affected(workspace(), ["db"]), ["db", "api", "app"]);
});

Deno.test("removing a node drops its edges", () => {
  const g = workspace().removeNode("api");
  assert.deepEqual(g.dependenciesOf("app"), ["ui"]);
  assert.deepEqual(g.dependentsOf("core"), ["ui"]);
});

Deno.test("a two-node cycle is reported", () => {
  const g = new DepGraph().addDependency("a", "b").addDependency("b", "a");
  assert.throws(() => buildOrder(g), (e: unknown) => e instanceof CycleError && e.cycle.join() === "a,b,a");
});
