import assert from "node:assert/strict";
import { maxSatisfying, satisfies } from "../src/satisfies.ts";

Deno.test("caret on 0.0.x only allows that patch", () => {
  assert.equal(satisfies("0.0.3", "^0.0.3"), true);
  assert.equal(satisfies("0.0.4", "^0.0.3"), false);
  assert.equal(satisfies("0.1.0", "^0.0.3"), false);
});

Deno.test("max satisfying with caret 0.0.x", () => {
  assert.equal(maxSatisfying(["0.0.3", "0.0.4", "0.1.0"], "^0.0.3"), "0.0.3");
});

Deno.test("caret on 0.x allows patch changes only", () => {
  assert.equal(satisfies("0.2.9", "^0.2.3"), true);
  assert.equal(satisfies("0.3.0", "^0.2.3"), false);
});

Deno.test("caret with partial zero versions", () => {
  assert.equal(satisfies("0.0.9", "^0.0"), true);
  assert.equal(satisfies("0.1.0", "^0.0"), false);
  assert.equal(satisfies("0.9.0", "^0"), true);
  assert.equal(satisfies("1.0.0", "^0"), false);
});

Deno.test("caret prerelease on 0.0.x", () => {
  assert.equal(satisfies("0.0.3-beta.2", "^0.0.3-beta.1"), true);
  assert.equal(satisfies("0.0.4-beta.1", "^0.0.3-beta.1"), false);
});
