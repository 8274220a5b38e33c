import assert from "node:assert/strict";
import { Cart } from "../src/cart.ts";
import { applyDiscounts, fixedOff, meetsMinimum, percentOff } from "../src/discounts.ts";

function cartOf(cents: number): Cart {
  return new Cart().add({ sku: "gift", name: "Gift card", unitPrice: cents, qty: 1 });
}

Deno.test("percent discount applies at exactly the minimum", () => {
  const totals = applyDiscounts(cartOf(5000), [percentOff(10, 5000)]);
  assert.equal(totals.discount, 500);
  assert.equal(totals.total, 4500);
});

Deno.test("fixed discount applies at exactly the minimum", () => {
  const totals = applyDiscounts(cartOf(3000), [fixedOff(500, 3000)]);
  assert.deepEqual(totals.applied, ["500 cents off"]);
  assert.equal(totals.total, 2500);
});

Deno.test("meetsMinimum is inclusive", () => {
  assert.equal(meetsMinimum(100, 100), true);
  assert.equal(meetsMinimum(99, 100), false);
});

Deno.test("no discount below the minimum", () => {
  const totals = applyDiscounts(cartOf(4999), [percentOff(10, 5000)]);
  assert.equal(totals.discount, 0);
  assert.deepEqual(totals.applied, []);
});

Deno.test("discount never exceeds the subtotal", () => {
  const totals = applyDiscounts(cartOf(300), [fixedOff(500)]);
  assert.equal(totals.total, 0);
  assert.equal(totals.discount, 300);
});
