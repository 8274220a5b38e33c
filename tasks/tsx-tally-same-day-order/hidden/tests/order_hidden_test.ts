import assert from "node:assert/strict";
import { loadJournal, money, reconcile } from "../src/mod.ts";

const BOOKS = `
2024-01-01 open Assets:Bank USD
2024-01-01 open Equity:Opening
2024-01-01 open Expenses:Food

2024-01-01 * Opening
  Assets:Bank   100.00 USD
  Equity:Opening

2024-01-05 * Coffee
  Expenses:Food   4.00 USD
  Assets:Bank

2024-01-05 * Lunch
  Expenses:Food   12.00 USD
  Assets:Bank

2024-01-05 * Refund
  Assets:Bank   2.00 USD
  Expenses:Food

2024-01-08 * Bakery
  Expenses:Food   6.00 USD
  Assets:Bank

2024-01-12 * Bakery
  Expenses:Food   6.00 USD
  Assets:Bank
`;

Deno.test("transactions of one day keep the journal order", () => {
  const ledger = loadJournal(BOOKS);
  assert.deepEqual(ledger.transactions({ from: "2024-01-05", until: "2024-01-05" }).map((t) => t.payee), [
    "Coffee",
    "Lunch",
    "Refund",
  ]);
});

Deno.test("the register runs through a day in journal order", () => {
  const rows = loadJournal(BOOKS).register("Assets:Bank", { until: "2024-01-05" });
  assert.deepEqual(rows.map((r) => [r.payee, r.running.get("USD")]), [
    ["Opening", 10000],
    ["Coffee", 9600],
    ["Lunch", 8400],
    ["Refund", 8600],
  ]);
});

Deno.test("a transaction posted later goes after those of its day", () => {
  const ledger = loadJournal(BOOKS);
  ledger.post({
    date: "2024-01-05",
    flag: "*",
    payee: "Tea",
    tags: [],
    postings: [{ account: "Expenses:Food", amount: money(300, "USD") }, { account: "Assets:Bank", amount: null }],
  });
  assert.deepEqual(ledger.transactions().map((t) => t.payee), [
    "Opening",
    "Coffee",
    "Lunch",
    "Refund",
    "Tea",
    "Bakery",
    "Bakery",
  ]);
});

Deno.test("reconcile prefers the earlier of two postings equally far away", () => {
  const result = reconcile(loadJournal(BOOKS), "Assets:Bank", [
    { date: "2024-01-01", amount: money(10000, "USD") },
    { date: "2024-01-10", amount: money(-600, "USD"), reference: "CARD" },
  ]);
  assert.deepEqual(result.matched.map((m) => [m.line.date, m.posting.date, m.lag]), [
    ["2024-01-01", "2024-01-01", 0],
    ["2024-01-10", "2024-01-08", 2],
  ]);
});

Deno.test("equal same-day lines pair with postings in journal order", () => {
  const text = BOOKS + `
2024-01-20 * Parking east
  Expenses:Food   5.00 USD
  Assets:Bank
2024-01-20 * Parking west
  Expenses:Food   5.00 USD
  Assets:Bank
`;
  const ledger = loadJournal(text);
  const result = reconcile(ledger, "Assets:Bank", [
    { date: "2024-01-21", amount: money(-500, "USD"), reference: "P1" },
    { date: "2024-01-21", amount: money(-500, "USD"), reference: "P2" },
  ]);
  assert.deepEqual(result.matched.map((m) => [m.line.reference, m.posting.payee]), [
    ["P1", "Parking east"],
    ["P2", "Parking west"],
  ]);
});

Deno.test("reconcile still prefers the closest posting", () => {
  const result = reconcile(loadJournal(BOOKS), "Assets:Bank", [{ date: "2024-01-11", amount: money(-600, "USD") }]);
  assert.deepEqual(result.matched.map((m) => m.posting.date), ["2024-01-12"]);
  assert.deepEqual(result.missingInStatement.map((r) => r.date), []);
});
