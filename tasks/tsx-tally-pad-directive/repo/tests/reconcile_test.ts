import assert from "node:assert/strict";
import { loadJournal, money, reconcile } from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

Deno.test("reconcile matches lines booked a few days late", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const result = reconcile(ledger, "Assets:Bank:Checking", [
    { date: "2024-01-01", amount: money(250000, "USD") },
    { date: "2024-01-04", amount: money(-120000, "USD") },
    { date: "2024-01-25", amount: money(310000, "USD") },
    { date: "2024-01-29", amount: money(-12065, "USD") },
  ]);
  assert.equal(result.matched.length, 4);
  assert.deepEqual(result.matched.map((m) => m.lag), [0, 1, 0, 1]);
  assert.equal(result.difference.amount, 0);
});

Deno.test("reconcile reports what is missing on each side", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const result = reconcile(ledger, "Assets:Bank:Checking", [
    { date: "2024-01-01", amount: money(250000, "USD") },
    { date: "2024-01-20", amount: money(-1500, "USD"), reference: "FEE" },
    { date: "2024-01-25", amount: money(310000, "USD") },
  ]);
  assert.deepEqual(result.missingInLedger.map((l) => l.reference), ["FEE"]);
  assert.deepEqual(result.missingInStatement.map((r) => r.payee), ["Landlord"]);
  assert.equal(result.statementTotal.amount, 558500);
  assert.equal(result.ledgerTotal.amount, 440000);
  assert.equal(result.difference.amount, 118500);
});

Deno.test("reconcile does not match outside the window", () => {
  const ledger = loadJournal(HOUSEHOLD);
  const result = reconcile(ledger, "Assets:Bank:Checking", [{
    date: "2024-01-09",
    amount: money(-120000, "USD"),
  }], {
    windowDays: 5,
  });
  assert.equal(result.matched.length, 0);
  assert.equal(result.missingInLedger.length, 1);
});
