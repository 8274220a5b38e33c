import assert from "node:assert/strict";
import { LedgerError, loadJournal, parseJournal } from "../src/mod.ts";

/** The code of the LedgerError `fn` throws, or "none". */
function errorCode(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof LedgerError) return error.code;
    throw error;
  }
  return "none";
}

const OPEN = `
2023-12-01 open Assets:Bank USD,EUR
2023-12-01 open Assets:Bank:Sub
2023-12-01 open Equity:Opening
2023-12-01 open Expenses:Food
`;

const SPEND = `
2024-01-10 * Shop
  Expenses:Food   200.00 USD
  Assets:Bank
`;

Deno.test("parseJournal reads a pad entry", () => {
  const entries = parseJournal("2024-01-01 pad Assets:Bank Equity:Opening\n");
  assert.deepEqual(entries, [{ kind: "pad", date: "2024-01-01", account: "Assets:Bank", source: "Equity:Opening", line: 1 }]);
});

Deno.test("parseJournal refuses a pad without a source", () => {
  assert.throws(() => parseJournal("2024-01-01 pad Assets:Bank\n"), /line 1/);
});

Deno.test("a pad fills the next balance assertion", () => {
  const ledger = loadJournal(OPEN + "2024-01-01 pad Assets:Bank Equity:Opening\n" + SPEND + "2024-01-31 balance Assets:Bank 1,000.00 USD\n");
  assert.equal(ledger.balanceOf("Assets:Bank", { until: "2024-01-31" }).get("USD"), 100000);
  assert.equal(ledger.balanceOf("Equity:Opening").get("USD"), -120000);
  const rows = ledger.register("Assets:Bank");
  assert.deepEqual(rows.map((r) => [r.date, r.amount.amount]), [["2024-01-01", 120000], ["2024-01-10", -20000]]);
});

Deno.test("the padding transaction is pending and named Padding", () => {
  const ledger = loadJournal(OPEN + "2024-01-01 pad Assets:Bank Equity:Opening\n" + SPEND + "2024-01-31 balance Assets:Bank 1,000.00 USD\n");
  const pad = ledger.transactions().find((t) => t.date === "2024-01-01");
  assert.equal(pad?.payee, "Padding");
  assert.equal(pad?.flag, "!");
});

Deno.test("a pad may come after its assertion in the file", () => {
  const ledger = loadJournal(OPEN + "2024-01-31 balance Assets:Bank 1,000.00 USD\n" + SPEND + "2024-01-01 pad Assets:Bank Equity:Opening\n");
  assert.equal(ledger.balanceOf("Assets:Bank").get("USD"), 100000);
  assert.equal(ledger.transactions()[0].date, "2024-01-01");
});

Deno.test("a pad counts sub-accounts like the assertion", () => {
  const ledger = loadJournal(OPEN + `
2024-01-02 * Transfer
  Assets:Bank:Sub   300.00 USD
  Equity:Opening
2024-01-01 pad Assets:Bank Equity:Opening
2024-01-31 balance Assets:Bank 1,000.00 USD
`);
  assert.equal(ledger.balanceOf("Assets:Bank", { includeChildren: false }).get("USD"), 70000);
  assert.equal(ledger.balanceOf("Assets:Bank").get("USD"), 100000);
});

Deno.test("nothing is posted when the balance already holds", () => {
  const ledger = loadJournal(OPEN + `
2024-01-01 * Opening
  Assets:Bank   1,200.00 USD
  Equity:Opening
2024-01-05 pad Assets:Bank Equity:Opening
` + SPEND + "2024-01-31 balance Assets:Bank 1,000.00 USD\n");
  assert.equal(ledger.transactions().length, 2);
});

Deno.test("only the next assertion is padded", () => {
  const text = OPEN + "2024-01-01 pad Assets:Bank Equity:Opening\n" + "2024-01-05 balance Assets:Bank 1,200.00 USD\n" + SPEND +
    "2024-01-31 balance Assets:Bank 1,100.00 USD\n";
  assert.equal(errorCode(() => loadJournal(text)), "assertion_failed");
  const fixed = loadJournal(text.replace("1,100.00 USD", "1,000.00 USD"));
  assert.equal(fixed.balanceOf("Equity:Opening").get("USD"), -120000);
});

Deno.test("a pad fills every currency asserted after it", () => {
  const ledger = loadJournal(OPEN + `
2024-01-01 pad Assets:Bank Equity:Opening
2024-01-31 balance Assets:Bank 50.00 EUR
2024-01-31 balance Assets:Bank 10.00 USD
`);
  assert.equal(ledger.balanceOf("Assets:Bank").get("EUR"), 5000);
  assert.equal(ledger.balanceOf("Assets:Bank").get("USD"), 1000);
  assert.equal(ledger.balanceOf("Equity:Opening").toString(), "-50.00 EUR, -10.00 USD");
});

Deno.test("a second pad fills the assertion after it", () => {
  const ledger = loadJournal(OPEN + `
2024-01-01 pad Assets:Bank Equity:Opening
2024-01-31 balance Assets:Bank 500.00 USD
2024-02-01 pad Assets:Bank Expenses:Food
2024-02-29 balance Assets:Bank 450.00 USD
`);
  assert.equal(ledger.balanceOf("Equity:Opening").get("USD"), -50000);
  assert.equal(ledger.balanceOf("Expenses:Food").get("USD"), 5000);
});

Deno.test("a pad without a later assertion is an error", () => {
  const text = OPEN + "2024-02-01 pad Assets:Bank Equity:Opening\n2024-01-31 balance Assets:Bank 0.00 USD\n";
  assert.equal(errorCode(() => loadJournal(text)), "unused_pad");
});

Deno.test("a pad from an unknown account is refused", () => {
  const text = OPEN + "2024-01-01 pad Assets:Bank Equity:Nowhere\n2024-01-31 balance Assets:Bank 10.00 USD\n";
  assert.equal(errorCode(() => loadJournal(text)), "unknown_account");
});

Deno.test("assertions without pads behave as before", () => {
  const ledger = loadJournal(OPEN + `
2024-01-01 * Opening
  Assets:Bank   1,200.00 USD
  Equity:Opening
` + SPEND + "2024-01-31 balance Assets:Bank 1,000.00 USD\n");
  assert.equal(ledger.transactions().length, 2);
  assert.throws(() => loadJournal(OPEN + SPEND + "2024-01-31 balance Assets:Bank 1,000.00 USD\n"), LedgerError);
});
