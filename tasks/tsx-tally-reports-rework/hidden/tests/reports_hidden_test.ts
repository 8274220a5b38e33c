import assert from "node:assert/strict";
import {
  Balance,
  balanceSheet,
  incomeStatement,
  loadJournal,
  money,
  renderIncomeStatement,
  renderTable,
  renderTrialBalance,
  rollup,
  trialBalance,
} from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

function plain(map: Map<string, Balance>): [string, string][] {
  return [...map].map(([account, balance]) => [account, balance.toString()]);
}

Deno.test("rollup sums every leaf once into each ancestor", () => {
  const leaves = new Map([
    ["Expenses:Food:Groceries", Balance.of(money(8415, "USD"))],
    ["Expenses:Food:Restaurants", Balance.of(money(3650, "USD"))],
    ["Expenses:Rent", Balance.of(money(120000, "USD"))],
  ]);
  assert.deepEqual(plain(rollup(leaves)), [
    ["Expenses", "1320.65 USD"],
    ["Expenses:Food", "120.65 USD"],
    ["Expenses:Food:Groceries", "84.15 USD"],
    ["Expenses:Food:Restaurants", "36.50 USD"],
    ["Expenses:Rent", "1200.00 USD"],
  ]);
});

Deno.test("rollup at a depth folds deeper accounts", () => {
  const leaves = new Map([
    ["Assets:Bank:Checking", Balance.of(money(100, "USD"))],
    ["Assets:Bank:Savings", Balance.of(money(250, "USD"), money(70, "EUR"))],
    ["Assets:Cash", Balance.of(money(5, "USD"))],
  ]);
  assert.deepEqual(plain(rollup(leaves, 2)), [
    ["Assets", "0.70 EUR, 3.55 USD"],
    ["Assets:Bank", "0.70 EUR, 3.50 USD"],
    ["Assets:Cash", "0.05 USD"],
  ]);
});

Deno.test("rollup leaves its input untouched", () => {
  const groceries = Balance.of(money(8415, "USD"));
  const leaves = new Map([["Expenses:Food:Groceries", groceries]]);
  rollup(leaves);
  rollup(leaves);
  assert.equal(leaves.get("Expenses:Food:Groceries")?.toString(), "84.15 USD");
});

Deno.test("trial balance credits are positive amounts", () => {
  const tb = trialBalance(loadJournal(HOUSEHOLD), "2024-01-12", "USD");
  assert.deepEqual(tb.rows.map((r) => [r.account, r.debit?.amount ?? null, r.credit?.amount ?? null]), [
    ["Assets:Bank:Checking", 130000, null],
    ["Equity:Opening", null, 250000],
    ["Expenses:Food:Groceries", 8415, null],
    ["Expenses:Food:Restaurants", 3650, null],
    ["Expenses:Rent", 120000, null],
    ["Liabilities:Card", null, 12065],
  ]);
  assert.deepEqual(tb.totalCredit, { amount: 262065, currency: "USD" });
  assert.deepEqual(tb.totalDebit, { amount: 262065, currency: "USD" });
});

Deno.test("renderTrialBalance prints the whole table", () => {
  const text = renderTrialBalance(trialBalance(loadJournal(HOUSEHOLD), "2024-01-12", "USD"));
  assert.equal(
    text,
    "Trial balance on 2024-01-12 (USD)\n" +
      "Account                           Debit        Credit\n" +
      "-------------------------  ------------  ------------\n" +
      "Assets:Bank:Checking       1,300.00 USD\n" +
      "Equity:Opening                           2,500.00 USD\n" +
      "Expenses:Food:Groceries       84.15 USD\n" +
      "Expenses:Food:Restaurants     36.50 USD\n" +
      "Expenses:Rent              1,200.00 USD\n" +
      "Liabilities:Card                           120.65 USD\n" +
      "-------------------------  ------------  ------------\n" +
      "Total                      2,620.65 USD  2,620.65 USD\n",
  );
});

Deno.test("renderTable leaves no trailing spaces", () => {
  const text = renderTable(
    [{ title: "Name", align: "left" }, { title: "Note", align: "left" }, { title: "N", align: "right" }],
    [["a", "", ""], ["bb", "x", "10"]],
    [["total", "", "10"]],
  );
  assert.equal(text, "Name   Note   N\n-----  ----  --\na\nbb     x     10\n-----  ----  --\ntotal        10\n");
});

Deno.test("renderTrialBalance lines end without padding", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const text = renderTrialBalance(trialBalance(ledger, "2024-01-31", "USD"));
  assert.equal(text.split("\n").filter((l) => l !== l.trimEnd()).length, 0);
  assert.ok(text.includes("\nIncome:Salary                            3,100.00 USD\n"));
});

Deno.test("balanceSheet at depth 3 with a liability", () => {
  const sheet = balanceSheet(loadJournal(HOUSEHOLD), "2024-01-12", "USD", { depth: 3 });
  assert.deepEqual(sheet.assets, [{ account: "Assets:Bank:Checking", amount: { amount: 130000, currency: "USD" } }]);
  assert.deepEqual(sheet.liabilities, [{ account: "Liabilities:Card", amount: { amount: 12065, currency: "USD" } }]);
  assert.deepEqual(sheet.equity.map((r) => [r.account, r.amount.amount]), [["Equity:Earnings", -132065], ["Equity:Opening", 250000]]);
  assert.deepEqual(sheet.totalAssets, { amount: 130000, currency: "USD" });
  assert.deepEqual(sheet.totalEquity, { amount: 117935, currency: "USD" });
  assert.deepEqual(sheet.conversionDifference, { amount: 0, currency: "USD" });
});

Deno.test("balanceSheet totals at the default depth", () => {
  const sheet = balanceSheet(loadJournal(HOUSEHOLD), "2024-01-31", "USD");
  assert.deepEqual(sheet.totalAssets, { amount: 427935, currency: "USD" });
  assert.deepEqual(sheet.totalLiabilities, { amount: 0, currency: "USD" });
  assert.deepEqual(sheet.totalEquity, { amount: 427935, currency: "USD" });
});

Deno.test("the income statement keeps its figures", () => {
  const s = incomeStatement(loadJournal(HOUSEHOLD), { start: "2024-01-01", end: "2024-01-31" }, "USD");
  assert.ok(renderIncomeStatement(s).endsWith("Net income                 1,779.35 USD\n"));
});
