import assert from "node:assert/strict";
import { balanceTransaction, LedgerError, loadJournal, money, ParseError, parseJournal, parsePosting, weightOf } from "../src/mod.ts";

const OPEN = `
2024-01-01 open Assets:Bank USD
2024-01-01 open Assets:Euro EUR
2024-01-01 open Assets:Yen JPY
2024-01-01 open Equity:Opening
`;

Deno.test("parsePosting reads a total price", () => {
  assert.deepEqual(parsePosting("Assets:Euro  100.00 EUR @@ 109.12 USD"), {
    account: "Assets:Euro",
    amount: { amount: 10000, currency: "EUR" },
    totalPrice: { amount: 10912, currency: "USD" },
  });
  assert.deepEqual(parsePosting("Assets:Yen 10,000 JPY @@67.35 USD"), {
    account: "Assets:Yen",
    amount: { amount: 10000, currency: "JPY" },
    totalPrice: { amount: 6735, currency: "USD" },
  });
});

Deno.test("parsePosting keeps unit prices as they were", () => {
  assert.deepEqual(parsePosting("Assets:Euro  100.00 EUR @ 1.09 USD"), {
    account: "Assets:Euro",
    amount: { amount: 10000, currency: "EUR" },
    price: { amount: 109, currency: "USD" },
  });
});

Deno.test("a total price needs an amount and cannot be negative", () => {
  assert.throws(() => parsePosting("Assets:Euro @@ 109.12 USD"), SyntaxError);
  assert.throws(() => parsePosting("Assets:Euro  100.00 EUR @@ -109.12 USD"), SyntaxError);
  assert.throws(() => parseJournal("2024-02-01 * X\n  Assets:Euro  1.00 EUR @@ -1.09 USD\n  Assets:Bank\n"), ParseError);
});

Deno.test("weightOf a posting with a total price", () => {
  const bought = { account: "Assets:Euro", amount: money(10000, "EUR"), totalPrice: money(10912, "USD") };
  assert.deepEqual(weightOf(bought), { amount: 10912, currency: "USD" });
  const sold = { account: "Assets:Euro", amount: money(-5000, "EUR"), totalPrice: money(5410, "USD") };
  assert.deepEqual(weightOf(sold), { amount: -5410, currency: "USD" });
});

Deno.test("a purchase at a total price balances against the bank", () => {
  const ledger = loadJournal(OPEN + `
2024-02-01 * Exchange
  Assets:Euro   100.00 EUR @@ 109.12 USD
  Assets:Bank
`);
  assert.equal(ledger.balanceOf("Assets:Bank").get("USD"), -10912);
  assert.equal(ledger.balanceOf("Assets:Euro").get("EUR"), 10000);
});

Deno.test("a sale at a total price balances", () => {
  const ledger = loadJournal(OPEN + `
2024-02-01 * Exchange back
  Assets:Euro   -50.00 EUR @@ 54.10 USD
  Assets:Bank   54.10 USD
`);
  assert.equal(ledger.balanceOf("Assets:Bank").get("USD"), 5410);
});

Deno.test("a total price in yen with no unit price that divides evenly", () => {
  const yen = { account: "Assets:Yen", amount: money(3, "JPY"), totalPrice: money(2, "USD") };
  const tx = balanceTransaction({
    date: "2024-02-01",
    flag: "*",
    payee: "Exchange",
    tags: [],
    postings: [yen, { account: "Assets:Bank", amount: null }],
  });
  assert.deepEqual(tx.postings[1].amount, { amount: -2, currency: "USD" });
});

Deno.test("an unbalanced total price is refused", () => {
  const text = OPEN + `
2024-02-01 * Exchange
  Assets:Euro   100.00 EUR @@ 109.12 USD
  Assets:Bank   -109.00 USD
`;
  let code = "none";
  try {
    loadJournal(text);
  } catch (error) {
    code = error instanceof LedgerError ? error.code : "not a LedgerError";
  }
  assert.equal(code, "unbalanced");
});
