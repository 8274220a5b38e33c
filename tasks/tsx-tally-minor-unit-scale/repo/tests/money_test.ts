import assert from "node:assert/strict";
import {
  addMoney,
  allocate,
  formatDecimal,
  formatMoney,
  money,
  parseDecimal,
  parseMoney,
} from "../src/mod.ts";

Deno.test("parseDecimal reads signs, separators and short fractions", () => {
  assert.equal(parseDecimal("12.5", 2), 1250);
  assert.equal(parseDecimal("-1,234.56", 2), -123456);
  assert.equal(parseDecimal("+7", 2), 700);
  assert.equal(parseDecimal("3.", 2), 300);
});

Deno.test("parseDecimal refuses more decimals than allowed", () => {
  assert.throws(() => parseDecimal("1.005", 2), SyntaxError);
  assert.throws(() => parseDecimal("abc", 2), SyntaxError);
});

Deno.test("formatDecimal pads and groups", () => {
  assert.equal(formatDecimal(5, 2), "0.05");
  assert.equal(formatDecimal(-123456, 2), "-1234.56");
  assert.equal(formatDecimal(123456789, 2, { grouping: true }), "1,234,567.89");
});

Deno.test("parseMoney and formatMoney round-trip", () => {
  const m = parseMoney("42.10", "EUR");
  assert.deepEqual(m, { amount: 4210, currency: "EUR" });
  assert.equal(formatMoney(m), "42.10 EUR");
});

Deno.test("addMoney refuses to mix currencies", () => {
  assert.deepEqual(addMoney(money(100, "USD"), money(250, "USD")), money(350, "USD"));
  assert.throws(() => addMoney(money(100, "USD"), money(100, "EUR")));
});

Deno.test("allocate splits without losing a cent", () => {
  const parts = allocate(money(1000, "USD"), [1, 1, 1]);
  assert.deepEqual(parts.map((p) => p.amount), [334, 333, 333]);
  const negative = allocate(money(-500, "USD"), [3, 1]);
  assert.deepEqual(negative.map((p) => p.amount), [-375, -125]);
});
