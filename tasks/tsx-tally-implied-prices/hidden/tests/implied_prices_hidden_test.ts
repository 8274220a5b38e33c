import assert from "node:assert/strict";
import { convert, incomeStatement, Ledger, LedgerError, loadJournal, money, trialBalance } from "../src/mod.ts";

const HEAD = `
2024-01-01 open Assets:Bank USD
2024-01-01 open Assets:Euro EUR
2024-01-01 open Liabilities:Card USD
2024-01-01 open Expenses:Travel
2024-01-01 open Equity:Opening

2024-01-01 * Opening
  Assets:Bank   5,000.00 USD
  Equity:Opening
`;

const HOTEL = `
2024-02-10 * Hotel Berlin #trip
  Expenses:Travel   200.00 EUR @ 1.09 USD
  Liabilities:Card
`;

Deno.test("a priced posting sets the rate of its day", () => {
  const ledger = loadJournal(HEAD + HOTEL);
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-10"), { num: 109n, den: 100n });
  assert.deepEqual(ledger.rates.rateOn("USD", "EUR", "2024-03-01"), { num: 100n, den: 109n });
});

Deno.test("no rate before the priced transaction", () => {
  const ledger = loadJournal(HEAD + HOTEL);
  assert.throws(() => ledger.rates.rateOn("EUR", "USD", "2024-02-09"), LedgerError);
});

Deno.test("the income statement converts foreign expenses with the implied rate", () => {
  const ledger = loadJournal(HEAD + HOTEL);
  const s = incomeStatement(ledger, { start: "2024-02-01", end: "2024-02-29" }, "USD");
  assert.deepEqual(s.expenses.map((r) => [r.account, r.amount.amount]), [["Expenses:Travel", 21800]]);
  assert.equal(s.net.amount, -21800);
});

Deno.test("a later priced transaction replaces the rate from then on", () => {
  const ledger = loadJournal(HEAD + HOTEL + `
2024-03-05 * Exchange
  Assets:Euro   500.00 EUR @ 1.08 USD
  Assets:Bank
`);
  assert.deepEqual(convert(money(10000, "EUR"), "USD", "2024-03-04", ledger.rates), { amount: 10900, currency: "USD" });
  assert.deepEqual(convert(money(10000, "EUR"), "USD", "2024-03-05", ledger.rates), { amount: 10800, currency: "USD" });
  const tb = trialBalance(ledger, "2024-03-31", "USD");
  assert.deepEqual(tb.rows.find((r) => r.account === "Assets:Euro")?.debit, { amount: 54000, currency: "USD" });
});

Deno.test("an explicit rate of the same day wins when it comes first", () => {
  const ledger = loadJournal(HEAD + "2024-02-10 rate EUR USD 1.10\n" + HOTEL);
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-10"), { num: 11n, den: 10n });
});

Deno.test("an explicit rate of the same day wins when it comes later", () => {
  const ledger = loadJournal(HEAD + HOTEL + "2024-02-10 rate EUR USD 1.10\n");
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-12"), { num: 11n, den: 10n });
});

Deno.test("an implied rate replaces an explicit rate of an earlier day", () => {
  const ledger = loadJournal(HEAD + "2024-02-01 rate EUR USD 1.10\n" + HOTEL);
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-09"), { num: 11n, den: 10n });
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-10"), { num: 109n, den: 100n });
});

Deno.test("the last priced posting of a day wins", () => {
  const ledger = loadJournal(HEAD + HOTEL + `
2024-02-10 * Taxi
  Expenses:Travel   20.00 EUR @ 1.10 USD
  Liabilities:Card
`);
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-02-10"), { num: 11n, den: 10n });
});

Deno.test("Ledger.post records the implied rate too", () => {
  const ledger = new Ledger();
  ledger.chart.open("Assets:Yen", "2024-01-01");
  ledger.chart.open("Assets:Bank", "2024-01-01");
  ledger.post({
    date: "2024-04-01",
    flag: "*",
    payee: "Exchange",
    tags: [],
    postings: [
      { account: "Assets:Yen", amount: money(15000, "JPY"), price: money(1, "USD") },
      { account: "Assets:Bank", amount: null },
    ],
  });
  assert.deepEqual(ledger.rates.rateOn("JPY", "USD", "2024-04-01"), { num: 1n, den: 100n });
  assert.deepEqual(convert(money(10000, "USD"), "JPY", "2024-04-02", ledger.rates), { amount: 10000, currency: "JPY" });
});

Deno.test("a refused transaction records no rate", () => {
  const ledger = new Ledger();
  ledger.chart.open("Assets:Bank", "2024-01-01", ["USD"]);
  assert.throws(() =>
    ledger.post({
      date: "2024-02-10",
      flag: "*",
      payee: "Hotel",
      tags: [],
      postings: [
        { account: "Expenses:Travel", amount: money(20000, "EUR"), price: money(109, "USD") },
        { account: "Assets:Bank", amount: null },
      ],
    }), LedgerError);
  assert.throws(() => ledger.rates.rateOn("EUR", "USD", "2024-02-10"), LedgerError);
});

Deno.test("a zero price records no rate", () => {
  const ledger = loadJournal(HEAD + `
2024-02-10 * Welcome gift
  Assets:Euro   10.00 EUR @ 0 USD
  Assets:Bank   0.00 USD
`);
  assert.equal(ledger.balanceOf("Assets:Euro").get("EUR"), 1000);
  assert.throws(() => ledger.rates.rateOn("EUR", "USD", "2024-02-10"), LedgerError);
});

Deno.test("books without prices keep only their explicit rates", () => {
  const ledger = loadJournal(HEAD + "2024-01-15 rate EUR USD 1.09\n");
  assert.deepEqual(ledger.rates.currencies(), ["EUR", "USD"]);
  assert.deepEqual(ledger.rates.rateOn("EUR", "USD", "2024-06-01"), { num: 109n, den: 100n });
});
