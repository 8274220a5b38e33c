import assert from "node:assert/strict";
import { buildInvoice, RateCard } from "../src/mod.ts";
import { apiTiers } from "./fixtures.ts";

const card = new RateCard("startup", [
  { metric: "api_calls", pricing: { scheme: "graduated", tiers: apiTiers }, included: 500 },
  { metric: "seats", pricing: { scheme: "package", size: 5, packagePrice: 4900 } },
]);

Deno.test("invoice deducts allowances and rounds lines", () => {
  const invoice = buildInvoice("acme", card, [
    { customer: "acme", metric: "api_calls", quantity: 1200 },
    { customer: "acme", metric: "api_calls", quantity: 301 },
    { customer: "other", metric: "api_calls", quantity: 99999 },
    { customer: "acme", metric: "seats", quantity: 7 },
    { customer: "acme", metric: "sms", quantity: 3 },
  ]);
  assert.deepEqual(invoice.lines, [
    { metric: "api_calls", used: 1501, billable: 1001, amount: 500 },
    { metric: "seats", used: 7, billable: 7, amount: 9800 },
  ]);
  assert.equal(invoice.total, 10300);
  assert.deepEqual(invoice.unrated, ["sms"]);
});

Deno.test("usage within the allowance is free", () => {
  const invoice = buildInvoice("acme", card, [{ customer: "acme", metric: "api_calls", quantity: 400 }]);
  assert.equal(invoice.total, 0);
});
