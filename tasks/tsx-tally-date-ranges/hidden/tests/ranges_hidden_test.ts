import assert from "node:assert/strict";
import * as tally from "../src/mod.ts";
import { inPeriod, loadJournal, money, reconcile } from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

// New options go through `as<T>()` so this file also compiles against the old API.
function as<T>(value: unknown): T {
  return value as T;
}

function period(start?: string, end?: string): tally.PostingFilter {
  return as<tally.PostingFilter>({ period: { start, end } });
}

Deno.test("inPeriod accepts open ends", () => {
  assert.equal(inPeriod("2024-01-05", { start: "2024-01-01", end: "2024-01-31" }), true);
  assert.equal(inPeriod("2024-02-01", { start: "2024-01-01", end: "2024-01-31" }), false);
  assert.equal(inPeriod("1999-12-31", as<tally.Period>({ end: "2024-01-31" })), true);
  assert.equal(inPeriod("2030-01-01", as<tally.Period>({ start: "2024-01-01" })), true);
  assert.equal(inPeriod("2023-12-31", as<tally.Period>({ start: "2024-01-01" })), false);
  assert.equal(inPeriod("2023-12-31", as<tally.Period>({})), true);
});

Deno.test("balanceOf takes a period", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const filter = (p: tally.PostingFilter) => p;
  assert.equal(ledger.balanceOf("Assets:Bank:Checking", filter(period(undefined, "2024-01-03"))).get("USD"), 130000);
  assert.equal(ledger.balanceOf("Expenses", filter(period("2024-01-04", "2024-01-31"))).get("USD"), 12065);
  assert.equal(ledger.balanceOf("Expenses", filter(period("2024-01-04"))).get("USD"), 12065);
  assert.equal(
    ledger.balanceOf("Expenses:Food", { ...filter(period("2024-01-01", "2024-01-31")), includeChildren: false }).get("USD"),
    0,
  );
});

Deno.test("transactions and register take a period", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const filter = period("2024-01-05", "2024-01-25");
  assert.deepEqual(ledger.transactions(filter).map((t) => t.payee), ["Corner Market", "Pizzeria", "ACME Corp payroll"]);
  assert.deepEqual(ledger.register("Liabilities:Card", filter).map((r) => r.running.get("USD")), [-8415, -12065]);
  assert.deepEqual(ledger.register("Liabilities:Card", period(undefined, "2024-01-05")).length, 1);
});

Deno.test("a period and from/until together are refused", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const both = as<tally.PostingFilter>({ ...period("2024-01-01", "2024-01-31"), until: "2024-01-15" });
  assert.throws(() => ledger.balanceOf("Assets", both), TypeError);
  assert.throws(() => ledger.transactions(both), TypeError);
  assert.throws(() => ledger.register("Assets", as<tally.PostingFilter>({ ...period("2024-01-01"), from: "2024-01-02" })), TypeError);
});

Deno.test("the deprecated from and until still work", () => {
  const ledger = loadJournal(HOUSEHOLD);
  assert.equal(ledger.balanceOf("Assets:Bank:Checking", { until: "2024-01-03" }).get("USD"), 130000);
  assert.deepEqual(ledger.transactions({ from: "2024-01-26" }).map((t) => t.payee), ["Card payment"]);
});

Deno.test("reconcile takes the statement period", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const lines = [
    { date: "2024-01-04", amount: money(-120000, "USD") },
    { date: "2024-01-25", amount: money(310000, "USD") },
  ];
  const options = as<Parameters<typeof reconcile>[3]>({ period: { start: "2024-01-01", end: "2024-01-31" } });
  const result = reconcile(ledger, "Assets:Bank:Checking", lines, options);
  assert.equal(result.matched.length, 2);
  assert.deepEqual(result.missingInStatement.map((r) => r.payee), ["Opening balance", "Card payment"]);
  assert.deepEqual(result.ledgerTotal, { amount: 427935, currency: "USD" });
  assert.deepEqual(result.difference, { amount: -237935, currency: "USD" });
});

Deno.test("reconcile without a period uses the statement's dates", () => {
  const result = reconcile(loadJournal(HOUSEHOLD), "Assets:Bank:Checking", [
    { date: "2024-01-04", amount: money(-120000, "USD") },
    { date: "2024-01-25", amount: money(310000, "USD") },
  ]);
  assert.deepEqual(result.missingInStatement.map((r) => r.payee), []);
  assert.deepEqual(result.ledgerTotal, { amount: 310000, currency: "USD" });
});
