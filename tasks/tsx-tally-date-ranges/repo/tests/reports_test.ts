import assert from "node:assert/strict";
import {
  balanceSheet,
  incomeStatement,
  loadJournal,
  renderIncomeStatement,
  renderTrialBalance,
  trialBalance,
} from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

Deno.test("trialBalance debits equal credits", () => {
  const tb = trialBalance(loadJournal(HOUSEHOLD), "2024-01-31", "USD");
  assert.equal(tb.totalDebit.amount, tb.totalCredit.amount);
  assert.deepEqual(tb.rows.map((r) => r.account), [
    "Assets:Bank:Checking",
    "Equity:Opening",
    "Expenses:Food:Groceries",
    "Expenses:Food:Restaurants",
    "Expenses:Rent",
    "Income:Salary",
  ]);
  assert.equal(tb.rows[0].debit?.amount, 427935);
  assert.equal(tb.rows[5].credit?.amount, 310000);
});

Deno.test("renderTrialBalance aligns the amounts", () => {
  const text = renderTrialBalance(trialBalance(loadJournal(HOUSEHOLD), "2024-01-31", "USD"));
  const lines = text.split("\n");
  assert.equal(lines[0], "Trial balance on 2024-01-31 (USD)");
  assert.ok(lines.includes("Assets:Bank:Checking       4,279.35 USD"));
  assert.ok(lines.includes("Total                      5,600.00 USD  5,600.00 USD"));
});

Deno.test("incomeStatement shows natural signs and the net", () => {
  const s = incomeStatement(loadJournal(HOUSEHOLD), { start: "2024-01-01", end: "2024-01-31" }, "USD");
  assert.deepEqual(s.income.map((r) => [r.account, r.amount.amount]), [["Income:Salary", 310000]]);
  assert.equal(s.totalExpenses.amount, 132065);
  assert.equal(s.net.amount, 177935);
});

Deno.test("incomeStatement folds accounts at a depth", () => {
  const s = incomeStatement(loadJournal(HOUSEHOLD), { start: "2024-01-01", end: "2024-01-31" }, "USD", {
    depth: 2,
  });
  assert.deepEqual(s.expenses.map((r) => [r.account, r.amount.amount]), [["Expenses:Food", 12065], [
    "Expenses:Rent",
    120000,
  ]]);
  assert.match(renderIncomeStatement(s), /Net income\s+1,779\.35 USD/);
});

Deno.test("balanceSheet balances with earnings in equity", () => {
  const sheet = balanceSheet(loadJournal(HOUSEHOLD), "2024-01-31", "USD");
  assert.deepEqual(sheet.assets.map((r) => [r.account, r.amount.amount]), [["Assets:Bank", 427935]]);
  assert.deepEqual(sheet.equity.map((r) => [r.account, r.amount.amount]), [["Equity:Earnings", 177935], [
    "Equity:Opening",
    250000,
  ]]);
  assert.equal(sheet.totalAssets.amount, sheet.totalLiabilities.amount + sheet.totalEquity.amount);
  assert.equal(sheet.conversionDifference.amount, 0);
});
