import assert from "node:assert/strict";
import { calculateTax, isExempt, JURISDICTIONS, JurisdictionRegistry, type Order, shippingTax } from "../src/mod.ts";

const registry = new JurisdictionRegistry(JURISDICTIONS);
const springfield = { state: "NS", county: "LAKE", city: "SPRINGFIELD" };

function order(lines: Order["lines"], shipping: number, shipTo: Order["shipTo"]): Order {
  return { id: "h", lines, shipping, shipTo };
}

Deno.test("isExempt covers subcategories", () => {
  assert.equal(isExempt(registry.get("NS"), "food/grocery/dairy"), true);
});

Deno.test("isExempt does not match a mere name prefix", () => {
  assert.equal(isExempt(registry.get("NS"), "foodservice/catering"), false);
});

Deno.test("isExempt on a nested exemption", () => {
  assert.equal(isExempt(registry.get("NS-LAKE"), "food/grocery/produce"), true);
  assert.equal(isExempt(registry.get("NS-LAKE"), "food/prepared"), false);
});

Deno.test("groceries in Springfield pay only the city tax", () => {
  const result = calculateTax(order([{ sku: "milk", category: "food/grocery/dairy", unitPrice: 2000, qty: 1 }], 0, springfield), registry);
  assert.deepEqual(result.byJurisdiction, { "NS-LAKE-SPRINGFIELD": 30 });
});

Deno.test("shippingTax skips jurisdictions that do not tax shipping", () => {
  assert.deepEqual(shippingTax(registry.chain(springfield), 1000), [{ jurisdiction: "NS", amount: 50 }]);
});

Deno.test("Port City taxes shipping even though South State does not", () => {
  const result = calculateTax(order([{ sku: "pen", category: "office", unitPrice: 500, qty: 1 }], 1000, { state: "SS", city: "PORT" }), registry);
  assert.deepEqual(result.shipping, [{ jurisdiction: "SS-PORT", amount: 20 }]);
  assert.equal(result.totalTax, 60);
});

Deno.test("the Springfield invoice", () => {
  const result = calculateTax(
    order([
      { sku: "milk", category: "food/grocery/dairy", unitPrice: 350, qty: 2 },
      { sku: "sandwich", category: "food/prepared", unitPrice: 899, qty: 1 },
      { sku: "aspirin", category: "medicine/otc", unitPrice: 1299, qty: 1 },
      { sku: "insulin", category: "medicine/prescription/insulin", unitPrice: 4500, qty: 1 },
    ], 999, springfield),
    registry,
  );
  assert.deepEqual(result.byJurisdiction, { "NS": 115, "NS-LAKE": 67, "NS-LAKE-SPRINGFIELD": 111 });
  assert.equal(result.totalTax, 293);
});

Deno.test("children's clothing in Port City is fully exempt", () => {
  const result = calculateTax(order([{ sku: "onesie", category: "clothing/children/baby", unitPrice: 2500, qty: 1 }], 0, { state: "SS", city: "PORT" }), registry);
  assert.equal(result.totalTax, 0);
});

Deno.test("general goods in Springfield are unchanged", () => {
  const result = calculateTax(order([{ sku: "lamp", category: "home/lighting", unitPrice: 1999, qty: 3 }], 0, springfield), registry);
  assert.deepEqual(result.byJurisdiction, { "NS": 300, "NS-LAKE": 60, "NS-LAKE-SPRINGFIELD": 90 });
});
