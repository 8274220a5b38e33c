import assert from "node:assert/strict";
import { buildInvoice, cost, RateCard, tierIndexFor } from "../src/mod.ts";
import { apiTiers, storageTiers } from "./fixtures.ts";

Deno.test("tierIndexFor: upTo is inclusive", () => {
  assert.equal(tierIndexFor(apiTiers, 1000), 0);
});

Deno.test("tierIndexFor at the second boundary", () => {
  assert.equal(tierIndexFor(apiTiers, 10000), 1);
});

Deno.test("tierIndexFor just past a boundary and at zero", () => {
  assert.equal(tierIndexFor(apiTiers, 1001), 1);
  assert.equal(tierIndexFor(apiTiers, 0), 0);
  assert.equal(tierIndexFor(apiTiers, 10001), 2);
});

Deno.test("volume pricing at exactly a tier's upTo", () => {
  assert.equal(cost({ scheme: "volume", tiers: apiTiers }, 1000), 500);
  assert.equal(cost({ scheme: "volume", tiers: apiTiers }, 10000), 4000);
});

Deno.test("volume flat fee at the boundary", () => {
  assert.equal(cost({ scheme: "volume", tiers: storageTiers }, 100), 1500);
});

Deno.test("graduated pricing charges the flat fee of every tier reached", () => {
  assert.equal(cost({ scheme: "graduated", tiers: storageTiers }, 150), 3900);
});

Deno.test("graduated flat fees with three tiers", () => {
  const tiers = [
    { upTo: 10, unitPrice: 0, flatFee: 1000 },
    { upTo: 20, unitPrice: 50, flatFee: 300 },
    { upTo: null, unitPrice: 40, flatFee: 200 },
  ];
  assert.equal(cost({ scheme: "graduated", tiers }, 25), 1000 + 500 + 300 + 200 + 200);
  assert.equal(cost({ scheme: "graduated", tiers }, 15), 1000 + 250 + 300);
});

Deno.test("graduated pricing up to a boundary stays in the first tier", () => {
  assert.equal(cost({ scheme: "graduated", tiers: storageTiers }, 100), 1500);
  assert.equal(cost({ scheme: "graduated", tiers: storageTiers }, 0), 0);
});

Deno.test("the Acme invoice", () => {
  const card = new RateCard("growth", [
    { metric: "api_calls", pricing: { scheme: "volume", tiers: apiTiers } },
    { metric: "storage_gb", pricing: { scheme: "graduated", tiers: storageTiers }, included: 10 },
  ]);
  const invoice = buildInvoice("acme", card, [
    { customer: "acme", metric: "api_calls", quantity: 1000 },
    { customer: "acme", metric: "storage_gb", quantity: 160 },
  ]);
  assert.deepEqual(invoice.lines.map((l) => l.amount), [500, 3900]);
  assert.equal(invoice.total, 4400);
});
