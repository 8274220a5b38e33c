import assert from "node:assert/strict";
import { accountType, Chart, isUnder, LedgerError, normalSign, parentOf } from "../src/mod.ts";

Deno.test("accountType reads the root segment", () => {
  assert.equal(accountType("Assets:Bank:Checking"), "Assets");
  assert.equal(accountType("Expenses:Food"), "Expenses");
  assert.throws(() => accountType("Bank:Checking"), LedgerError);
  assert.throws(() => accountType("Assets::Bank"), LedgerError);
});

Deno.test("account tree helpers", () => {
  assert.equal(parentOf("Assets:Bank:Checking"), "Assets:Bank");
  assert.equal(parentOf("Assets"), null);
  assert.ok(isUnder("Assets:Bank:Checking", "Assets:Bank"));
  assert.ok(!isUnder("Assets:Banking", "Assets:Bank"));
  assert.equal(normalSign("Income"), -1);
  assert.equal(normalSign("Expenses"), 1);
});

Deno.test("Chart checks open dates and currencies", () => {
  const chart = new Chart();
  chart.open("Assets:Bank", "2024-01-01", ["USD"]);
  chart.checkPosting("Assets:Bank", "2024-01-01", "USD");
  assert.throws(() => chart.checkPosting("Assets:Bank", "2023-12-31", "USD"), { code: "account_closed" });
  assert.throws(() => chart.checkPosting("Assets:Bank", "2024-02-01", "EUR"), {
    code: "currency_not_allowed",
  });
  assert.throws(() => chart.checkPosting("Assets:Cash", "2024-02-01", "USD"), { code: "unknown_account" });
  chart.close("Assets:Bank", "2024-06-30");
  chart.checkPosting("Assets:Bank", "2024-06-30", "USD");
  assert.throws(() => chart.checkPosting("Assets:Bank", "2024-07-01", "USD"), { code: "account_closed" });
});
