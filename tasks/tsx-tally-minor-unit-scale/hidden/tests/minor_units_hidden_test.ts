import assert from "node:assert/strict";
import {
  balanceTransaction,
  convert,
  convertBalance,
  Balance,
  loadJournal,
  money,
  RateTable,
  trialBalance,
  weightOf,
} from "../src/mod.ts";

function rates(): RateTable {
  const table = new RateTable();
  table.add("2024-01-01", "USD", "JPY", "148.20");
  table.add("2024-01-01", "EUR", "USD", "1.0850");
  table.add("2024-01-01", "KWD", "USD", "3.25");
  return table;
}

Deno.test("convert USD to JPY keeps the value", () => {
  assert.deepEqual(convert(money(1000, "USD"), "JPY", "2024-02-01", rates()), { amount: 1482, currency: "JPY" });
});

Deno.test("convert JPY to USD keeps the value", () => {
  assert.deepEqual(convert(money(1482, "JPY"), "USD", "2024-02-01", rates()), { amount: 1000, currency: "USD" });
  assert.deepEqual(convert(money(100000, "JPY"), "USD", "2024-02-01", rates()), { amount: 67476, currency: "USD" });
});

Deno.test("convert to and from KWD uses three decimals", () => {
  assert.deepEqual(convert(money(3250, "KWD"), "USD", "2024-02-01", rates()), { amount: 1056, currency: "USD" });
  assert.deepEqual(convert(money(1300, "USD"), "KWD", "2024-02-01", rates()), { amount: 4000, currency: "KWD" });
});

Deno.test("convert across currencies with different decimals through a cross rate", () => {
  assert.deepEqual(convert(money(1000, "KWD"), "JPY", "2024-02-01", rates()), { amount: 482, currency: "JPY" });
});

Deno.test("convert to JPY rounds half to even once", () => {
  const table = new RateTable();
  table.add("2024-01-01", "USD", "JPY", "150");
  assert.deepEqual(convert(money(5, "USD"), "JPY", "2024-01-01", table), { amount: 8, currency: "JPY" });
  assert.deepEqual(convert(money(3, "USD"), "JPY", "2024-01-01", table), { amount: 4, currency: "JPY" });
  assert.deepEqual(convert(money(3, "USD"), "JPY", "2024-01-01", table, { rounding: "half_up" }), { amount: 5, currency: "JPY" });
});

Deno.test("convertBalance mixes currencies with different decimals", () => {
  const b = Balance.of(money(1000, "USD"), { amount: 1482, currency: "JPY" });
  assert.deepEqual(convertBalance(b, "USD", "2024-02-01", rates()), { amount: 2000, currency: "USD" });
});

Deno.test("weightOf a posting priced in yen", () => {
  const p = { account: "Assets:Euro", amount: money(-10000, "EUR"), price: money(160, "JPY") };
  assert.deepEqual(weightOf(p), { amount: -16000, currency: "JPY" });
});

Deno.test("weightOf yen priced in dollars", () => {
  const p = { account: "Assets:Yen", amount: money(1000, "JPY"), price: money(1, "USD") };
  assert.deepEqual(weightOf(p), { amount: 1000, currency: "USD" });
});

Deno.test("weightOf dinars priced in euros", () => {
  const p = { account: "Assets:Dinar", amount: money(2500, "KWD"), price: money(298, "EUR") };
  assert.deepEqual(weightOf(p), { amount: 745, currency: "EUR" });
});

Deno.test("a yen purchase paid in euros balances", () => {
  const tx = balanceTransaction({
    date: "2024-03-01",
    flag: "*",
    payee: "Exchange office",
    tags: [],
    postings: [
      { account: "Assets:Yen", amount: money(16000, "JPY") },
      { account: "Assets:Euro", amount: money(-10000, "EUR"), price: money(160, "JPY") },
    ],
  });
  assert.equal(tx.postings.length, 2);
});

Deno.test("a journal with yen and dinar postings loads and reports", () => {
  const ledger = loadJournal(`
2024-01-01 open Assets:Euro EUR
2024-01-01 open Assets:Yen JPY
2024-01-01 open Assets:Dinar KWD
2024-01-01 open Equity:Opening
2024-01-01 rate EUR JPY 160
2024-01-01 rate KWD EUR 2.98

2024-01-01 * Opening
  Assets:Euro   1,000.00 EUR
  Equity:Opening

2024-03-01 * Exchange office
  Assets:Yen   16,000 JPY
  Assets:Euro  -100.00 EUR @ 160 JPY

2024-03-02 * Exchange office
  Assets:Dinar   25.000 KWD @ 2.98 EUR
  Assets:Euro

2024-03-31 balance Assets:Yen 16000 JPY
2024-03-31 balance Assets:Euro 825.50 EUR
`);
  const tb = trialBalance(ledger, "2024-03-31", "EUR");
  const rows = Object.fromEntries(tb.rows.map((r) => [r.account, r.debit?.amount ?? -(r.credit?.amount ?? 0)]));
  assert.deepEqual(rows, { "Assets:Dinar": 7450, "Assets:Euro": 82550, "Assets:Yen": 10000, "Equity:Opening": -100000 });
  assert.equal(tb.totalDebit.amount, tb.totalCredit.amount);
});

Deno.test("conversions between two-decimal currencies are unchanged", () => {
  assert.deepEqual(convert(money(1000, "EUR"), "USD", "2024-02-01", rates()), { amount: 1085, currency: "USD" });
  const p = { account: "Assets:Euro", amount: money(1000, "EUR"), price: money(109, "USD") };
  assert.deepEqual(weightOf(p), { amount: 1090, currency: "USD" });
});
