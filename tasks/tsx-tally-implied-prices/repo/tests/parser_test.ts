import assert from "node:assert/strict";
import { parseAmount, ParseError, parseJournal, parsePosting } from "../src/mod.ts";
import { HOUSEHOLD } from "./fixtures.ts";

Deno.test("parseAmount reads number and currency", () => {
  assert.deepEqual(parseAmount("1,200.00 USD"), { amount: 120000, currency: "USD" });
  assert.deepEqual(parseAmount("-3.5 EUR"), { amount: -350, currency: "EUR" });
  assert.throws(() => parseAmount("12 XYZ"), SyntaxError);
  assert.throws(() => parseAmount("12"), SyntaxError);
});

Deno.test("parsePosting reads account, amount and price", () => {
  assert.deepEqual(parsePosting("Assets:Cash"), { account: "Assets:Cash", amount: null });
  assert.deepEqual(parsePosting("Expenses:Food   12.00 USD"), {
    account: "Expenses:Food",
    amount: { amount: 1200, currency: "USD" },
  });
  assert.deepEqual(parsePosting("Assets:Euro  100.00 EUR @ 1.08 USD"), {
    account: "Assets:Euro",
    amount: { amount: 10000, currency: "EUR" },
    price: { amount: 108, currency: "USD" },
  });
});

Deno.test("parseJournal reads the household journal", () => {
  const entries = parseJournal(HOUSEHOLD);
  const kinds = entries.map((e) => e.kind);
  assert.equal(kinds.filter((k) => k === "open").length, 9);
  assert.equal(kinds.filter((k) => k === "transaction").length, 6);
  const market = entries.find((e) => e.kind === "transaction" && e.transaction.payee === "Corner Market");
  assert.ok(market && market.kind === "transaction");
  assert.deepEqual(market.transaction.tags, ["food"]);
  assert.equal(market.transaction.postings.length, 2);
});

Deno.test("parseJournal names the line of a problem", () => {
  const text = "2024-01-01 open Assets:Cash\n2024-01-02 * Shop\n  Expenses:Food  1.234 USD\n  Assets:Cash\n";
  assert.throws(() => parseJournal(text), (e: unknown) => e instanceof ParseError && e.line === 3);
  assert.throws(
    () => parseJournal("2024-13-01 open Assets:Cash"),
    (e: unknown) => e instanceof ParseError && e.line === 1,
  );
  assert.throws(() => parseJournal("  Assets:Cash  1.00 USD"), ParseError);
});

Deno.test("parseJournal reads rate and close directives", () => {
  const entries = parseJournal("2024-01-02 rate EUR USD 1.0850\n2024-03-01 close Assets:Old\n");
  assert.deepEqual(entries[0], {
    kind: "rate",
    date: "2024-01-02",
    base: "EUR",
    quote: "USD",
    rate: { num: 217n, den: 200n },
    line: 1,
  });
  assert.deepEqual(entries[1], { kind: "close", date: "2024-03-01", account: "Assets:Old", line: 2 });
});
