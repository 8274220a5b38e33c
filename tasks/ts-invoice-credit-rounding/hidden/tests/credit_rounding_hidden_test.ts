import assert from "node:assert/strict";
import { creditNote, invoiceTotals, lineTotals } from "../src/invoice.ts";
import { convert } from "../src/convert.ts";
import { roundHalfAway } from "../src/decimal.ts";
import { formatMoney } from "../src/format.ts";

const lines = [
  { description: "Manual", quantity: 1, unitPrice: 1250, taxRate: 5 },
  { description: "Cable", quantity: 1, unitPrice: 250, taxRate: 5 },
  { description: "Widget", quantity: 3, unitPrice: 1999, taxRate: 20 },
];

Deno.test("credit note exactly mirrors the invoice", () => {
  const inv = invoiceTotals(lines);
  const cred = invoiceTotals(creditNote(lines));
  assert.equal(cred.net, -inv.net);
  assert.equal(cred.tax, -inv.tax);
  assert.equal(cred.gross, -inv.gross);
});

Deno.test("negative half-cent tax rounds away from zero", () => {
  assert.deepEqual(lineTotals({ description: "Return", quantity: -1, unitPrice: 250, taxRate: 5 }), {
    net: -250,
    tax: -13,
    gross: -263,
  });
});

Deno.test("discounted return lines round like sales", () => {
  const sale = { description: "Desk", quantity: 1, unitPrice: 1005, taxRate: 10, discountPercent: 10 };
  const ret = lineTotals({ ...sale, quantity: -1 });
  const fwd = lineTotals(sale);
  assert.deepEqual(ret, { net: -fwd.net, tax: -fwd.tax, gross: -fwd.gross });
});

Deno.test("converting a refund rounds away from zero", () => {
  assert.equal(convert(250, "USD", "JPY", 1), 3);
  assert.equal(convert(-250, "USD", "JPY", 1), -3);
});

Deno.test("roundHalfAway is symmetric", () => {
  assert.equal(roundHalfAway(-2.5), -3);
  assert.equal(roundHalfAway(-1.005, 2), -1.01);
  assert.equal(roundHalfAway(-2.4), -2);
});

Deno.test("positive invoice totals unchanged", () => {
  const t = invoiceTotals(lines);
  assert.deepEqual(t.taxByRate, { "5": 63 + 13, "20": 1199 });
  assert.equal(formatMoney(-t.gross, "USD"), "-$" + (t.gross / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","));
});

Deno.test("conversion rejects non-positive rates", () => {
  assert.throws(() => convert(100, "USD", "EUR", 0), RangeError);
  assert.equal(convert(1000, "USD", "KWD", 0.3075), 3075);
});
