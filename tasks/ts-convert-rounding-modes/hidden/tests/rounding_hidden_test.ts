import assert from "node:assert/strict";
import { roundTo } from "../src/rounding.ts";
import { convertMoney, decimalsOf, formatMoney, roundMoney } from "../src/currency.ts";

Deno.test("half-even sends -0.5 to zero", () => {
  assert.equal(roundTo(-0.5, 0, "half-even"), 0);
});

Deno.test("half-even on negative odd halves", () => {
  assert.equal(roundTo(-1.5, 0, "half-even"), -2);
  assert.equal(roundTo(-7.25, 1, "half-even"), -7.2);
});

Deno.test("zero-decimal currencies", () => {
  assert.equal(decimalsOf("KRW"), 0);
  assert.equal(roundMoney(999.5, "KRW"), 1000);
  assert.equal(formatMoney(-1500.4, "KRW"), "-₩1,500");
});

Deno.test("converting to yen rounds to whole yen", () => {
  const table = { base: "EUR", rates: { JPY: 162.3 } };
  assert.equal(convertMoney(3.33, "EUR", "JPY", table), 540);
});

Deno.test("two-decimal currencies keep two decimals", () => {
  assert.equal(decimalsOf("EUR"), 2);
  assert.equal(roundMoney(2.675, "GBP", "half-up"), 2.68);
});
