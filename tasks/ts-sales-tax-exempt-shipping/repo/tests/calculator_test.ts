import assert from "node:assert/strict";
import { calculateTax, JURISDICTIONS, JurisdictionRegistry, type Order } from "../src/mod.ts";

const registry = new JurisdictionRegistry(JURISDICTIONS);

Deno.test("each jurisdiction taxes a general line", () => {
  const order: Order = {
    id: "o-1",
    lines: [{ sku: "lamp", category: "home/lighting", unitPrice: 4000, qty: 1 }],
    shipping: 0,
    shipTo: { state: "NS", county: "LAKE", city: "SPRINGFIELD" },
  };
  const result = calculateTax(order, registry);
  assert.deepEqual(result.byJurisdiction, { "NS": 200, "NS-LAKE": 40, "NS-LAKE-SPRINGFIELD": 60 });
  assert.equal(result.totalTax, 300);
});

Deno.test("discounts reduce the taxable amount", () => {
  const order: Order = {
    id: "o-2",
    lines: [{ sku: "mug", category: "home/kitchen", unitPrice: 1250, qty: 2, discount: 500 }],
    shipping: 0,
    shipTo: { state: "SS" },
  };
  const result = calculateTax(order, registry);
  assert.equal(result.lines[0].taxable, 2000);
  assert.equal(result.totalTax, 120);
});

Deno.test("an exactly exempt category is not taxed", () => {
  const order: Order = {
    id: "o-3",
    lines: [{ sku: "shirt", category: "clothing", unitPrice: 3000, qty: 1 }],
    shipping: 0,
    shipTo: { state: "SS" },
  };
  assert.equal(calculateTax(order, registry).totalTax, 0);
});

Deno.test("shipping is taxed where the state taxes it", () => {
  const order: Order = {
    id: "o-4",
    lines: [{ sku: "book", category: "media/books", unitPrice: 1000, qty: 1 }],
    shipping: 800,
    shipTo: { state: "NS" },
  };
  const result = calculateTax(order, registry);
  assert.deepEqual(result.shipping, [{ jurisdiction: "NS", amount: 40 }]);
  assert.equal(result.totalTax, 90);
});
