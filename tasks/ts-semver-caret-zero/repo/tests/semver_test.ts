import assert from "node:assert/strict";
import { compareVersions, formatVersion, parseVersion } from "../src/version.ts";
import { maxSatisfying, satisfies } from "../src/satisfies.ts";

Deno.test("parses and formats versions", () => {
  assert.equal(formatVersion(parseVersion("v1.2.3-beta.2+build.5")), "1.2.3-beta.2");
  assert.throws(() => parseVersion("1.2"), SyntaxError);
});

Deno.test("prerelease sorts before release", () => {
  const order = ["1.0.0", "1.0.0-rc.1", "1.0.0-alpha", "1.0.0-alpha.1", "0.9.9"]
    .map(parseVersion)
    .sort(compareVersions)
    .map(formatVersion);
  assert.deepEqual(order, ["0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-rc.1", "1.0.0"]);
});

Deno.test("caret ranges on major versions", () => {
  assert.equal(satisfies("1.9.0", "^1.2.3"), true);
  assert.equal(satisfies("2.0.0", "^1.2.3"), false);
  assert.equal(satisfies("1.2.2", "^1.2.3"), false);
});

Deno.test("tilde and comparator ranges", () => {
  assert.equal(satisfies("1.2.9", "~1.2.3"), true);
  assert.equal(satisfies("1.3.0", "~1.2.3"), false);
  assert.equal(satisfies("1.5.0", ">=1.2 <2"), true);
  assert.equal(satisfies("3.0.0", "1.x || >=2.5.0"), true);
});

Deno.test("max satisfying picks the highest match", () => {
  assert.equal(maxSatisfying(["1.2.3", "1.4.0", "2.0.0"], "^1.0.0"), "1.4.0");
  assert.equal(maxSatisfying(["1.2.3"], ">2"), null);
});
