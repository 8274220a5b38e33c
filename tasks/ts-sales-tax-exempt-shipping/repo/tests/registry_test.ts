import assert from "node:assert/strict";
import { JURISDICTIONS, JurisdictionRegistry, UnknownJurisdictionError } from "../src/jurisdictions/mod.ts";

const registry = new JurisdictionRegistry(JURISDICTIONS);

Deno.test("chain resolves state, county and city", () => {
  const codes = registry.chain({ state: "NS", county: "LAKE", city: "SPRINGFIELD" }).map((j) => j.code);
  assert.deepEqual(codes, ["NS", "NS-LAKE", "NS-LAKE-SPRINGFIELD"]);
});

Deno.test("a city without a county hangs off the state", () => {
  assert.deepEqual(registry.chain({ state: "SS", city: "PORT" }).map((j) => j.code), ["SS", "SS-PORT"]);
});

Deno.test("unknown jurisdictions are errors", () => {
  assert.throws(() => registry.chain({ state: "XX" }), UnknownJurisdictionError);
});
