import assert from "node:assert/strict";
import { invoiceTotals, lineTotals } from "../src/invoice.ts";
import { formatMoney } from "../src/format.ts";
import { roundHalfAway } from "../src/decimal.ts";

const lines = [
  { description: "Widget", quantity: 3, unitPrice: 1999, taxRate: 20 },
  { description: "Manual", quantity: 1, unitPrice: 1250, taxRate: 5 },
  { description: "Support", quantity: 2, unitPrice: 4000, taxRate: 20, discountPercent: 10 },
];

Deno.test("line totals round tax per line", () => {
  assert.deepEqual(lineTotals(lines[0]), { net: 5997, tax: 1199, gross: 7196 });
  assert.deepEqual(lineTotals(lines[2]), { net: 7200, tax: 1440, gross: 8640 });
});

Deno.test("invoice totals and tax per rate", () => {
  const t = invoiceTotals(lines);
  assert.equal(t.net, 5997 + 1250 + 7200);
  assert.deepEqual(t.taxByRate, { "20": 1199 + 1440, "5": 63 });
  assert.equal(t.gross, t.net + t.tax);
});

Deno.test("rounds half away from zero for positive amounts", () => {
  assert.equal(roundHalfAway(2.5), 3);
  assert.equal(roundHalfAway(1.005, 2), 1.01);
  assert.equal(roundHalfAway(2.4), 2);
});

Deno.test("formats money in several currencies", () => {
  assert.equal(formatMoney(123456, "USD"), "$1,234.56");
  assert.equal(formatMoney(-500, "USD", { negative: "parens" }), "($5.00)");
  assert.equal(formatMoney(1500, "JPY"), "¥1,500");
  assert.equal(formatMoney(1234567, "EUR", { thousands: ".", decimal: "," }), "12.345,67 €");
});
