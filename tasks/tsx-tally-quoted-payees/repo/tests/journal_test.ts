import assert from "node:assert/strict";
import { balanceTransaction, LedgerError, money, type Transaction, weightOf } from "../src/mod.ts";

function tx(postings: Transaction["postings"]): Transaction {
  return { date: "2024-02-01", flag: "*", payee: "Test", postings, tags: [] };
}

Deno.test("balanceTransaction fills the elided posting", () => {
  const balanced = balanceTransaction(tx([
    { account: "Expenses:Food", amount: money(1250, "USD") },
    { account: "Expenses:Tips", amount: money(250, "USD") },
    { account: "Assets:Cash", amount: null },
  ]));
  assert.deepEqual(balanced.postings[2], { account: "Assets:Cash", amount: money(-1500, "USD") });
});

Deno.test("balanceTransaction refuses unbalanced transactions", () => {
  assert.throws(
    () =>
      balanceTransaction(tx([
        { account: "Expenses:Food", amount: money(1250, "USD") },
        { account: "Assets:Cash", amount: money(-1200, "USD") },
      ])),
    (e: unknown) => e instanceof LedgerError && e.code === "unbalanced",
  );
});

Deno.test("balanceTransaction refuses two elided postings", () => {
  assert.throws(
    () =>
      balanceTransaction(tx([
        { account: "Expenses:Food", amount: money(1250, "USD") },
        { account: "Assets:Cash", amount: null },
        { account: "Assets:Bank", amount: null },
      ])),
    { code: "too_many_elided" },
  );
});

Deno.test("a priced posting weighs amount times price", () => {
  const p = { account: "Assets:Broker", amount: money(1000, "EUR"), price: money(109, "USD") };
  assert.deepEqual(weightOf(p), money(1090, "USD"));
  const balanced = balanceTransaction(tx([p, { account: "Assets:Bank", amount: null }]));
  assert.deepEqual(balanced.postings[1].amount, money(-1090, "USD"));
});
