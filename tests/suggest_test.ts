import assert from "node:assert/strict";
import { closest, didYouMean, distance } from "../src/suggest.ts";

Deno.test("distance() counts edits, a swap of neighbours as one", () => {
  assert.equal(distance("rollout", "rollout"), 0);
  assert.equal(distance("rolout", "rollout"), 1);
  assert.equal(distance("rollotu", "rollout"), 1);
  assert.equal(distance("", "abc"), 3);
});

Deno.test("closest() suggests near names only", () => {
  const commands = ["rollout", "tasks", "validate", "score", "export", "show", "report"];
  assert.equal(closest("rolout", commands), "rollout");
  assert.equal(closest("EXPROT", commands), "export");
  assert.equal(closest("frobnicate", commands), null);
  assert.equal(closest("x", []), null);
});

Deno.test("didYouMean() formats the hint with a prefix", () => {
  assert.equal(didYouMean("sample", ["samples", "seed"], "--"), '; did you mean "--samples"?');
  assert.equal(didYouMean("zzzzzz", ["samples"]), "");
});
