import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { latestOf, outdated, parseRegistry } from "../src/index.js";

const registry = parseRegistry(JSON.stringify({
  chalk: ["4.1.0", "4.1.2", "5.3.0", "6.0.0-beta.1", "6.0.0-rc.2"],
  vite: ["5.0.0", "5.4.2", "6.0.0-alpha.3", "6.0.0-beta.0"],
  tiny: ["0.1.0", "0.2.0"],
  next: ["14.2.0", "15.0.0-canary.7", "15.0.0-canary.12"],
  fresh: ["1.0.0-rc.1"],
}));

describe("latest ignores prereleases", () => {
  it("offers the highest release as latest", () => {
    const [row] = outdated({ dependencies: { chalk: "^4.1.0" } }, { chalk: "4.1.0" }, registry);
    assert.deepEqual([row.wanted, row.latest, row.type], ["4.1.2", "5.3.0", "major"]);
  });

  it("leaves a dependency on the newest release out of the report", () => {
    const rows = outdated({ dependencies: { vite: "^5.0.0" } }, { vite: "5.4.2" }, registry);
    assert.deepEqual(rows, []);
  });

  it("latestOf picks releases over newer prereleases", () => {
    assert.equal(latestOf(["1.0.0", "2.0.0-rc.1", "1.5.0"]), "1.5.0");
    assert.equal(latestOf(["0.9.0", "1.0.0-beta.2"]), "0.9.0");
  });
});

describe("latest on a prerelease track", () => {
  it("offers newer prereleases when the installed version is one", () => {
    const [row] = outdated({ dependencies: { next: "^15.0.0-canary.7" } }, { next: "15.0.0-canary.7" }, registry);
    assert.deepEqual([row.wanted, row.latest, row.type], ["15.0.0-canary.12", "15.0.0-canary.12", "prerelease"]);
  });

  it("latestOf with a prerelease installed keeps prereleases", () => {
    assert.equal(latestOf(["1.0.0", "2.0.0-rc.1"], "2.0.0-rc.0"), "2.0.0-rc.1");
    assert.equal(latestOf(["1.0.0-rc.1"], "1.0.0-rc.1"), "1.0.0-rc.1");
  });
});

describe("rules that already hold", () => {
  it("reports plain releases as before", () => {
    const [row] = outdated({ dependencies: { tiny: "~0.1.0" } }, { tiny: "0.1.0" }, registry);
    assert.deepEqual([row.current, row.wanted, row.latest, row.type], ["0.1.0", "0.1.0", "0.2.0", "minor"]);
  });

  it("marks a missing install", () => {
    const [row] = outdated({ devDependencies: { tiny: "^0.2.0" } }, {}, registry);
    assert.deepEqual([row.current, row.type, row.dev], [null, "missing", true]);
  });
});
