import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { maxSatisfying, satisfies } from "../src/index.js";

describe("satisfies", () => {
  it("matches comparators and unions", () => {
    assert.equal(satisfies("1.5.0", ">=1.2.0 <2.0.0"), true);
    assert.equal(satisfies("2.0.0", ">=1.2.0 <2.0.0"), false);
    assert.equal(satisfies("3.1.0", "^1.0.0 || ^3.0.0"), true);
  });

  it("matches tilde ranges", () => {
    assert.equal(satisfies("1.2.9", "~1.2.3"), true);
    assert.equal(satisfies("1.3.0", "~1.2.3"), false);
  });

  it("matches caret ranges of stable majors", () => {
    assert.equal(satisfies("1.9.0", "^1.2.3"), true);
    assert.equal(satisfies("2.0.0", "^1.2.3"), false);
    assert.equal(satisfies("1.2.2", "^1.2.3"), false);
  });

  it("matches hyphen and x-ranges", () => {
    assert.equal(satisfies("1.4.0", "1.2.0 - 1.4"), true);
    assert.equal(satisfies("1.5.0", "1.2.0 - 1.4"), false);
    assert.equal(satisfies("1.7.3", "1.x"), true);
  });
});

describe("maxSatisfying", () => {
  it("picks the highest match", () => {
    assert.equal(maxSatisfying(["1.2.0", "1.9.1", "2.0.0"], "^1.0.0"), "1.9.1");
    assert.equal(maxSatisfying(["2.0.0"], "^1.0.0"), null);
  });
});
