import assert from "node:assert/strict";
import { cost, TierError, unitsPerTier, validateTiers } from "../src/tiers/mod.ts";
import { apiTiers, storageTiers } from "./fixtures.ts";

Deno.test("graduated pricing splits units across tiers", () => {
  assert.deepEqual(unitsPerTier(apiTiers, 12000), [1000, 9000, 2000]);
  assert.equal(cost({ scheme: "graduated", tiers: apiTiers }, 12000), 500 + 3600 + 500);
});

Deno.test("volume pricing inside a tier", () => {
  assert.equal(cost({ scheme: "volume", tiers: apiTiers }, 5000), 2000);
  assert.equal(cost({ scheme: "volume", tiers: apiTiers }, 20000), 5000);
});

Deno.test("graduated flat fee in the first tier", () => {
  assert.equal(cost({ scheme: "graduated", tiers: storageTiers }, 40), 900);
});

Deno.test("package pricing rounds up", () => {
  assert.equal(cost({ scheme: "package", size: 100, packagePrice: 250 }, 101), 500);
  assert.equal(cost({ scheme: "package", size: 100, packagePrice: 250 }, 0), 0);
});

Deno.test("tier lists are validated", () => {
  assert.throws(() => validateTiers([{ upTo: 10, unitPrice: 1 }]), TierError);
  assert.throws(() => validateTiers([{ upTo: 10, unitPrice: 1 }, { upTo: 5, unitPrice: 1 }, { upTo: null, unitPrice: 1 }]), TierError);
  assert.throws(() => cost({ scheme: "volume", tiers: apiTiers }, -1), RangeError);
});
