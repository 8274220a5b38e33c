import assert from "node:assert/strict";
import { LedgerError, loadJournal } from "../src/mod.ts";

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

const BOOKS = `
2024-01-01 open Assets:Old USD,EUR
2024-01-01 open Assets:Old:Pocket
2024-01-01 open Assets:New
2024-01-01 open Equity:Opening
2024-01-01 open Expenses:Fees

2024-01-01 * Opening
  Assets:Old   500.00 USD
  Equity:Opening
`;

const MOVE = `
2024-03-31 * Move to the new bank
  Assets:New   495.00 USD
  Expenses:Fees   5.00 USD
  Assets:Old
`;

const LATE_FEE = `
2024-04-02 * Late fee
  Expenses:Fees   1.00 USD
  Assets:Old
`;

Deno.test("an emptied account closes", () => {
  const ledger = loadJournal(BOOKS + MOVE + "2024-03-31 close Assets:Old\n");
  assert.equal(ledger.balanceOf("Assets:Old").isZero(), true);
  assert.equal(ledger.chart.get("Assets:Old").closed, "2024-03-31");
});

Deno.test("closing an account that still holds money is refused", () => {
  assert.equal(errorCode(() => loadJournal(BOOKS + "2024-03-31 close Assets:Old\n")), "account_not_empty");
});

Deno.test("any currency left blocks the close", () => {
  const text = BOOKS + MOVE + `
2024-02-01 * Change
  Assets:Old   5.00 EUR
  Equity:Opening
2024-03-31 close Assets:Old
`;
  assert.equal(errorCode(() => loadJournal(text)), "account_not_empty");
});

Deno.test("money in a sub-account blocks the close", () => {
  const text = BOOKS + MOVE + `
2024-02-01 * Coins
  Assets:Old:Pocket   2.00 USD
  Equity:Opening
2024-03-31 close Assets:Old
`;
  assert.equal(errorCode(() => loadJournal(text)), "account_not_empty");
});

Deno.test("the balance at the close counts transactions written after the close entry", () => {
  const refund = `
2024-03-15 * Refund
  Assets:Old   3.00 USD
  Equity:Opening
`;
  assert.equal(errorCode(() => loadJournal(BOOKS + MOVE + "2024-03-31 close Assets:Old\n" + refund)), "account_not_empty");
  const emptied = BOOKS + "2024-03-31 close Assets:Old\n" + MOVE;
  assert.equal(loadJournal(emptied).balanceOf("Assets:Old").isZero(), true);
});

Deno.test("a posting after the close date is refused when it comes first in the file", () => {
  const text = BOOKS + MOVE + LATE_FEE + "2024-03-31 close Assets:Old\n";
  assert.equal(errorCode(() => loadJournal(text)), "account_closed");
});

Deno.test("a posting after the close date is refused when it comes later in the file", () => {
  const text = BOOKS + MOVE + "2024-03-31 close Assets:Old\n" + LATE_FEE;
  assert.equal(errorCode(() => loadJournal(text)), "account_closed");
});

Deno.test("an account closes only once", () => {
  const text = BOOKS + MOVE + "2024-03-31 close Assets:Old\n2024-04-30 close Assets:Old\n";
  assert.equal(errorCode(() => loadJournal(text)), "account_closed");
});

Deno.test("other accounts keep working after a close", () => {
  const ledger = loadJournal(BOOKS + MOVE + "2024-03-31 close Assets:Old\n" + `
2024-04-02 * Fee
  Expenses:Fees   1.00 USD
  Assets:New
`);
  assert.equal(ledger.balanceOf("Assets:New").get("USD"), 49400);
  assert.equal(ledger.register("Assets:Old").length, 2);
});
