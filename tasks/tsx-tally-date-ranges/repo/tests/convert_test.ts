import assert from "node:assert/strict";
import { Balance, convert, convertBalance, money, RateTable } from "../src/mod.ts";

function rates(): RateTable {
  const table = new RateTable();
  table.add("2024-01-01", "EUR", "USD", "1.0850");
  table.add("2024-01-01", "USD", "JPY", "148.20");
  return table;
}

Deno.test("convert rounds once to the target's minor unit", () => {
  assert.deepEqual(convert(money(1000, "EUR"), "USD", "2024-01-02", rates()), money(1085, "USD"));
  assert.deepEqual(convert(money(1085, "USD"), "EUR", "2024-01-02", rates()), money(1000, "EUR"));
  assert.deepEqual(convert(money(1, "EUR"), "USD", "2024-01-02", rates()), money(1, "USD"));
});

Deno.test("convert honours the rounding mode", () => {
  const table = new RateTable();
  table.add("2024-01-01", "EUR", "USD", "1.5");
  assert.deepEqual(convert(money(1, "EUR"), "USD", "2024-01-01", table), money(2, "USD"));
  assert.deepEqual(convert(money(3, "EUR"), "USD", "2024-01-01", table), money(4, "USD"));
  assert.deepEqual(
    convert(money(3, "EUR"), "USD", "2024-01-01", table, { rounding: "half_up" }),
    money(5, "USD"),
  );
});

Deno.test("convertBalance sums every currency", () => {
  const b = Balance.of(money(1000, "EUR"), money(500, "USD"));
  assert.deepEqual(convertBalance(b, "USD", "2024-01-02", rates()), money(1585, "USD"));
});
