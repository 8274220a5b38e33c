import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { maxSatisfying, parseRange, satisfies } from "../src/index.js";

function inRange(range, yes, no) {
  for (const version of yes) assert.equal(satisfies(version, range), true, `${version} in ${range}`);
  for (const version of no) assert.equal(satisfies(version, range), false, `${version} not in ${range}`);
}

describe("caret ranges below 1.0.0", () => {
  it("^0.2.3 allows patch updates only", () => {
    inRange("^0.2.3", ["0.2.3", "0.2.4", "0.2.99"], ["0.2.2", "0.3.0", "0.9.0", "1.0.0"]);
  });

  it("^0.0.3 allows exactly that version", () => {
    inRange("^0.0.3", ["0.0.3"], ["0.0.2", "0.0.4", "0.1.0", "1.0.0"]);
  });

  it("^0.0 and ^0.1 pin the minor", () => {
    inRange("^0.0", ["0.0.0", "0.0.9"], ["0.1.0", "1.0.0"]);
    inRange("^0.1", ["0.1.0", "0.1.7"], ["0.2.0", "0.0.9"]);
  });

  it("^0 and ^0.x allow any 0.y.z", () => {
    inRange("^0", ["0.0.0", "0.5.1", "0.99.0"], ["1.0.0"]);
    inRange("^0.x", ["0.3.0"], ["1.0.0"]);
  });

  it("keeps prereleases of the upper bound out", () => {
    inRange("^0.2.3", [], ["0.3.0-0", "0.3.0-beta.1"]);
    inRange("^0.2.3-beta.1", ["0.2.3-beta.1", "0.2.3-beta.2", "0.2.5"], ["0.2.4-beta.1", "0.3.0"]);
  });

  it("maxSatisfying stays inside the pinned minor", () => {
    assert.equal(maxSatisfying(["0.2.3", "0.2.9", "0.3.1", "0.4.0"], "^0.2.0"), "0.2.9");
    assert.equal(maxSatisfying(["0.0.1", "0.0.2"], "^0.0.1"), "0.0.1");
  });

  it("expands to two comparators", () => {
    assert.equal(parseRange("^0.2.3")[0].length, 2);
  });
});

describe("caret ranges from 1.0.0", () => {
  it("^1.2.3 allows minor and patch updates", () => {
    inRange("^1.2.3", ["1.2.3", "1.3.0", "1.99.99"], ["1.2.2", "2.0.0", "2.0.0-0"]);
  });

  it("^1.x and ^2 allow the whole major", () => {
    inRange("^1.x", ["1.0.0", "1.9.9"], ["2.0.0", "0.9.9"]);
    inRange("^2", ["2.0.0", "2.5.0"], ["3.0.0", "1.9.9"]);
  });
});
