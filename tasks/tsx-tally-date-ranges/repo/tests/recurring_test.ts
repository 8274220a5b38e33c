import assert from "node:assert/strict";
import { expand, money, occurrences, parseInterval, type Schedule } from "../src/mod.ts";

const rent: Schedule = {
  start: "2024-01-01",
  every: { unit: "month", count: 1 },
  template: {
    flag: "*",
    payee: "Landlord",
    tags: ["rent"],
    postings: [
      { account: "Expenses:Rent", amount: money(120000, "USD") },
      { account: "Assets:Bank:Checking", amount: null },
    ],
  },
};

Deno.test("parseInterval reads counts and units", () => {
  assert.deepEqual(parseInterval("month"), { unit: "month", count: 1 });
  assert.deepEqual(parseInterval("2 weeks"), { unit: "week", count: 2 });
  assert.deepEqual(parseInterval("quarter"), { unit: "month", count: 3 });
  assert.throws(() => parseInterval("fortnight"), { code: "invalid_schedule" });
});

Deno.test("occurrences stop at the end date and the count", () => {
  assert.deepEqual(occurrences(rent, "2024-04-15"), ["2024-01-01", "2024-02-01", "2024-03-01", "2024-04-01"]);
  assert.deepEqual(occurrences({ ...rent, times: 2 }, "2024-12-31"), ["2024-01-01", "2024-02-01"]);
  assert.deepEqual(occurrences({ ...rent, until: "2024-02-10" }, "2024-12-31"), ["2024-01-01", "2024-02-01"]);
});

Deno.test("weekly schedules step by seven days", () => {
  const weekly = { ...rent, start: "2024-02-26", every: { unit: "week" as const, count: 1 } };
  assert.deepEqual(occurrences(weekly, "2024-03-12"), ["2024-02-26", "2024-03-04", "2024-03-11"]);
});

Deno.test("expand copies the template", () => {
  const txs = expand(rent, "2024-02-01");
  assert.equal(txs.length, 2);
  assert.equal(txs[1].date, "2024-02-01");
  assert.notEqual(txs[0].postings, txs[1].postings);
});
