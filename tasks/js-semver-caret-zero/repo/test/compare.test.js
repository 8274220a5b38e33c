import { test } from "node:test";
import assert from "node:assert/strict";
import { compare, parseVersion } from "../src/index.js";

test("parses versions with prerelease and build", () => {
  const v = parseVersion("v1.2.3-beta.4+sha.5");
  assert.deepEqual([v.major, v.minor, v.patch, v.prerelease], [1, 2, 3, ["beta", 4]]);
  assert.equal(v.toString(), "1.2.3-beta.4");
});

test("rejects invalid versions", () => {
  assert.throws(() => parseVersion("1.2"), TypeError);
  assert.throws(() => parseVersion("01.2.3"), TypeError);
});

test("orders prereleases before releases", () => {
  const sorted = ["1.0.0", "1.0.0-rc.1", "1.0.0-alpha", "1.0.0-alpha.1", "0.9.9"].sort(compare);
  assert.deepEqual(sorted, ["0.9.9", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-rc.1", "1.0.0"]);
});
