import assert from "node:assert/strict";
import { convertMoney, CurrencyError, formatMoney, roundMoney } from "../src/currency.ts";

const table = { base: "USD", rates: { EUR: 0.9, GBP: 0.8, JPY: 150.5, BHD: 0.376 } };

Deno.test("converts through the base currency", () => {
  assert.equal(convertMoney(100, "USD", "EUR", table), 90);
  assert.equal(convertMoney(90, "EUR", "GBP", table), 80);
});

Deno.test("yen amounts have no decimals", () => {
  assert.equal(convertMoney(10, "USD", "JPY", table), 1505);
  assert.equal(convertMoney(10.02, "USD", "JPY", table), 1508);
  assert.equal(roundMoney(1234.5, "JPY"), 1234);
});

Deno.test("dinar amounts have three decimals", () => {
  assert.equal(convertMoney(12.34, "USD", "BHD", table), 4.64);
  assert.equal(roundMoney(1.2345, "BHD"), 1.234);
});

Deno.test("refunds round half to even", () => {
  assert.equal(roundMoney(-10.125, "USD"), -10.12);
  assert.equal(roundMoney(-10.135, "USD"), -10.14);
});

Deno.test("formatMoney uses the minor units", () => {
  assert.equal(formatMoney(3.1, "USD"), "$3.10");
  assert.equal(formatMoney(1234567, "JPY"), "¥1,234,567");
  assert.equal(formatMoney(-0.5, "BHD"), "-BD0.500");
});

Deno.test("unknown currencies are errors", () => {
  assert.throws(() => convertMoney(1, "USD", "XYZ", table), CurrencyError);
});
