import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadRegistry, outdated, updateType } from "../src/index.js";

const registry = loadRegistry(fileURLToPath(new URL("../fixtures/registry.json", import.meta.url)));

describe("outdated", () => {
  it("reports wanted and latest per dependency", () => {
    const manifest = { dependencies: { "left-pad": "^1.1.0", chalk: "^4.1.0" } };
    const rows = outdated(manifest, { "left-pad": "1.1.0", chalk: "4.1.0" }, registry);
    assert.deepEqual(rows.map((r) => [r.name, r.current, r.wanted, r.latest, r.type]), [
      ["chalk", "4.1.0", "4.1.2", "5.3.0", "major"],
      ["left-pad", "1.1.0", "1.3.0", "1.3.0", "minor"],
    ]);
  });

  it("leaves up-to-date dependencies out", () => {
    const rows = outdated({ dependencies: { lodash: "^4.17.0" } }, { lodash: "4.17.21" }, registry);
    assert.deepEqual(rows, []);
  });

  it("marks dev dependencies and missing installs", () => {
    const manifest = { devDependencies: { kleur: "^4.0.0" } };
    const [row] = outdated(manifest, {}, registry);
    assert.equal(row.dev, true);
    assert.equal(row.current, null);
    assert.equal(row.type, "missing");
  });

  it("rejects packages the snapshot does not know", () => {
    assert.throws(() => outdated({ dependencies: { nope: "*" } }, {}, registry), /Unknown package "nope"/);
  });
});

describe("updateType", () => {
  it("classifies the jump", () => {
    assert.equal(updateType("1.2.3", "1.2.4"), "patch");
    assert.equal(updateType("1.2.3", "2.0.0"), "major");
    assert.equal(updateType("1.2.3", "1.2.3"), "none");
  });
});
