import assert from "node:assert/strict";
import { loadJournal, parseJournal, type Transaction } from "../src/mod.ts";

function transactions(text: string): Transaction[] {
  return parseJournal(text).flatMap((e) => (e.kind === "transaction" ? [e.transaction] : []));
}

const POSTINGS = "  Expenses:Food   8.50 USD\n  Assets:Cash\n";

Deno.test("a semicolon inside a quoted payee is not a comment", () => {
  const [tx] = transactions('2024-01-05 * "Fish ; Chips" #food\n' + POSTINGS);
  assert.equal(tx.payee, "Fish ; Chips");
  assert.deepEqual(tx.tags, ["food"]);
});

Deno.test("a comment after a quoted payee with a semicolon is dropped", () => {
  const [tx] = transactions('2024-01-05 * "Fish ; Chips" #food #friday ; paid cash\n' + POSTINGS);
  assert.equal(tx.payee, "Fish ; Chips");
  assert.deepEqual(tx.tags, ["food", "friday"]);
});

Deno.test("a hash inside a quoted payee is not a tag", () => {
  const [tx] = transactions('2024-01-06 * "Unit #4 Hardware" #diy\n' + POSTINGS);
  assert.equal(tx.payee, "Unit #4 Hardware");
  assert.deepEqual(tx.tags, ["diy"]);
});

Deno.test("a quoted payee keeps its spacing", () => {
  const [tx] = transactions('2024-01-06 ! "Smith  &  Sons"\n' + POSTINGS);
  assert.equal(tx.payee, "Smith  &  Sons");
  assert.equal(tx.flag, "!");
  assert.deepEqual(tx.tags, []);
});

Deno.test("quoted payees come through loadJournal", () => {
  const ledger = loadJournal(`
2024-01-01 open Expenses:Food
2024-01-01 open Assets:Cash
2024-01-05 * "Fish ; Chips" #food
  Expenses:Food   8.50 USD ; "large" portion
  Assets:Cash
2024-01-06 * "Stall #12; market" ; saturday
  Expenses:Food   3.00 USD
  Assets:Cash
`);
  assert.deepEqual(ledger.register("Expenses:Food").map((r) => [r.payee, r.amount.amount]), [
    ["Fish ; Chips", 850],
    ["Stall #12; market", 300],
  ]);
});

Deno.test("unquoted payees and tags are read as before", () => {
  const [tx] = transactions("2024-01-05 * Corner  Market #food #weekly ; note\n" + POSTINGS);
  assert.equal(tx.payee, "Corner Market");
  assert.deepEqual(tx.tags, ["food", "weekly"]);
  const [plain] = transactions('2024-01-05 * "Corner Market"\n' + POSTINGS);
  assert.equal(plain.payee, "Corner Market");
});

Deno.test("comments on posting lines are still dropped", () => {
  const [tx] = transactions('2024-01-05 * Shop\n  Expenses:Food   2.00 USD ; he said "fine"\n  Assets:Cash ; ;\n');
  assert.deepEqual(tx.postings, [
    { account: "Expenses:Food", amount: { amount: 200, currency: "USD" } },
    { account: "Assets:Cash", amount: null },
  ]);
});
