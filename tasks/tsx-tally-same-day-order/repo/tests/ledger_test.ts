import assert from "node:assert/strict";
import { Ledger, LedgerError, loadJournal, money } from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

Deno.test("loadJournal computes account balances", () => {
  const ledger = loadJournal(HOUSEHOLD);
  assert.equal(ledger.balanceOf("Assets:Bank:Checking").get("USD"), 427935);
  assert.equal(ledger.balanceOf("Liabilities:Card").get("USD"), 0);
  assert.equal(ledger.balanceOf("Expenses:Food").get("USD"), 12065);
  assert.equal(ledger.balanceOf("Expenses:Food", { includeChildren: false }).get("USD"), 0);
});

Deno.test("balanceOf honours the date range", () => {
  const ledger = loadJournal(HOUSEHOLD);
  assert.equal(ledger.balanceOf("Assets:Bank:Checking", { until: "2024-01-03" }).get("USD"), 130000);
  assert.equal(ledger.balanceOf("Expenses", { from: "2024-01-04", until: "2024-01-31" }).get("USD"), 12065);
});

Deno.test("register shows a running balance", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const rows = ledger.register("Liabilities:Card");
  assert.deepEqual(rows.map((r) => r.running.get("USD")), [-8415, -12065, 0]);
  assert.deepEqual(rows.map((r) => r.payee), ["Corner Market", "Pizzeria", "Card payment"]);
});

Deno.test("post keeps transactions in date order", () => {
  const ledger = loadJournal(HOUSEHOLD);
  ledger.post({
    date: "2024-01-02",
    flag: "*",
    payee: "Bakery",
    tags: [],
    postings: [
      { account: "Expenses:Food:Groceries", amount: money(450, "USD") },
      { account: "Assets:Cash", amount: null },
    ],
  });
  assert.deepEqual(ledger.transactions({ until: "2024-01-03" }).map((t) => t.payee), [
    "Opening balance",
    "Bakery",
    "Landlord",
  ]);
});

Deno.test("post refuses unknown accounts and wrong currencies", () => {
  const ledger = new Ledger();
  ledger.chart.open("Assets:Bank", "2024-01-01", ["USD"]);
  ledger.chart.open("Equity:Opening", "2024-01-01");
  const post = (currency: string, account = "Assets:Bank") =>
    ledger.post({
      date: "2024-01-02",
      flag: "*",
      payee: "x",
      tags: [],
      postings: [{ account, amount: money(100, currency) }, { account: "Equity:Opening", amount: null }],
    });
  assert.throws(() => post("EUR"), { code: "currency_not_allowed" });
  assert.throws(() => post("USD", "Assets:Cash"), { code: "unknown_account" });
  assert.equal(ledger.transactions().length, 0);
  post("USD");
  assert.equal(ledger.transactions().length, 1);
});

Deno.test("a failing balance assertion names the account and line", () => {
  const text = HOUSEHOLD.replace(
    "balance Assets:Bank:Checking 4279.35 USD",
    "balance Assets:Bank:Checking 4279.00 USD",
  );
  assert.throws(
    () => loadJournal(text),
    (e: unknown) =>
      e instanceof LedgerError && e.code === "assertion_failed" && e.message.includes("Assets:Bank:Checking"),
  );
});
