import assert from "node:assert/strict";
import { Cart } from "../src/cart.ts";
import { formatCents, toCents } from "../src/money.ts";
import { applyDiscounts, buyXGetY, percentOff } from "../src/discounts.ts";

function sampleCart(): Cart {
  return new Cart()
    .add({ sku: "mug", name: "Mug", unitPrice: 1200, qty: 2 })
    .add({ sku: "tea", name: "Tea", unitPrice: 850, qty: 3 });
}

Deno.test("subtotal sums unit price times quantity", () => {
  assert.equal(sampleCart().subtotal(), 2 * 1200 + 3 * 850);
});

Deno.test("adding an existing sku merges quantities", () => {
  const cart = sampleCart().add({ sku: "mug", name: "Mug", unitPrice: 1200, qty: 1 });
  assert.equal(cart.quantityOf("mug"), 3);
  assert.equal(cart.lines().length, 2);
});

Deno.test("money helpers convert and format", () => {
  assert.equal(toCents(12.5), 1250);
  assert.equal(formatCents(123456), "$1,234.56");
  assert.equal(formatCents(-5), "-$0.05");
});

Deno.test("percent discount applies above the minimum", () => {
  const totals = applyDiscounts(sampleCart(), [percentOff(10, 4000)]);
  assert.equal(totals.discount, 495);
  assert.deepEqual(totals.applied, ["10% off"]);
});

Deno.test("buy two get one free", () => {
  const cart = new Cart().add({ sku: "tea", name: "Tea", unitPrice: 850, qty: 6 });
  assert.equal(applyDiscounts(cart, [buyXGetY("tea", 2, 1)]).discount, 1700);
});
