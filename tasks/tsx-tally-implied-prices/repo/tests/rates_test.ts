import assert from "node:assert/strict";
import { LedgerError, parseRate, RateTable, rateToNumber } from "../src/mod.ts";

Deno.test("parseRate keeps exact fractions", () => {
  assert.deepEqual(parseRate("1.25"), { num: 5n, den: 4n });
  assert.deepEqual(parseRate("150"), { num: 150n, den: 1n });
  assert.throws(() => parseRate("0"), RangeError);
  assert.throws(() => parseRate("-1.2"), SyntaxError);
});

Deno.test("RateTable uses the latest rate on or before the date", () => {
  const rates = new RateTable();
  rates.add("2024-01-01", "EUR", "USD", "1.10");
  rates.add("2024-02-01", "EUR", "USD", "1.08");
  assert.equal(rateToNumber(rates.rateOn("EUR", "USD", "2024-01-31")), 1.1);
  assert.equal(rateToNumber(rates.rateOn("EUR", "USD", "2024-02-01")), 1.08);
  assert.throws(() => rates.rateOn("EUR", "USD", "2023-12-31"), LedgerError);
});

Deno.test("RateTable inverts a recorded pair", () => {
  const rates = new RateTable();
  rates.add("2024-01-01", "EUR", "USD", "1.25");
  assert.deepEqual(rates.rateOn("USD", "EUR", "2024-06-01"), { num: 4n, den: 5n });
});

Deno.test("RateTable finds a cross rate through another currency", () => {
  const rates = new RateTable();
  rates.add("2024-01-01", "EUR", "USD", "1.10");
  rates.add("2024-01-01", "GBP", "USD", "1.25");
  const eurGbp = rates.rateOn("EUR", "GBP", "2024-01-15");
  assert.deepEqual(eurGbp, { num: 22n, den: 25n });
});
