import assert from "node:assert/strict";
import {
  addMonths,
  expand,
  incomeStatement,
  Ledger,
  money,
  occurrences,
  parseInterval,
  periodContaining,
  type Schedule,
} from "../src/mod.ts";

function schedule(start: string, every: string, extra: Partial<Schedule> = {}): Schedule {
  return {
    start,
    every: parseInterval(every),
    template: {
      flag: "*",
      payee: "Landlord",
      tags: [],
      postings: [
        { account: "Expenses:Rent", amount: money(100000, "USD") },
        { account: "Assets:Bank", amount: null },
      ],
    },
    ...extra,
  };
}

Deno.test("addMonths clamps without spilling into the next month", () => {
  assert.equal(addMonths("2024-01-31", 1), "2024-02-29");
  assert.equal(addMonths("2024-03-31", 1), "2024-04-30");
  assert.equal(addMonths("2024-08-31", 1), "2024-09-30");
  assert.equal(addMonths("2023-12-31", 2), "2024-02-29");
});

Deno.test("addMonths goes back across years", () => {
  assert.equal(addMonths("2024-01-15", -1), "2023-12-15");
  assert.equal(addMonths("2024-05-31", -3), "2024-02-29");
  assert.equal(addMonths("2025-03-31", -13), "2024-02-29");
  assert.equal(addMonths("2024-02-29", 12), "2025-02-28");
});

Deno.test("periodContaining finds every quarter", () => {
  assert.deepEqual(periodContaining("2024-01-01", "quarter"), { start: "2024-01-01", end: "2024-03-31" });
  assert.deepEqual(periodContaining("2024-03-31", "quarter"), { start: "2024-01-01", end: "2024-03-31" });
  assert.deepEqual(periodContaining("2024-06-15", "quarter"), { start: "2024-04-01", end: "2024-06-30" });
  assert.deepEqual(periodContaining("2024-09-30", "quarter"), { start: "2024-07-01", end: "2024-09-30" });
  assert.deepEqual(periodContaining("2024-12-31", "quarter"), { start: "2024-10-01", end: "2024-12-31" });
});

Deno.test("a monthly schedule on the 31st comes back to the 31st", () => {
  assert.deepEqual(occurrences(schedule("2024-01-31", "month"), "2024-06-30"), [
    "2024-01-31",
    "2024-02-29",
    "2024-03-31",
    "2024-04-30",
    "2024-05-31",
    "2024-06-30",
  ]);
});

Deno.test("a quarterly schedule on the 30th of November", () => {
  assert.deepEqual(occurrences(schedule("2023-11-30", "quarter"), "2024-12-31"), [
    "2023-11-30",
    "2024-02-29",
    "2024-05-30",
    "2024-08-30",
    "2024-11-30",
  ]);
});

Deno.test("a yearly schedule on a leap day", () => {
  assert.deepEqual(occurrences(schedule("2024-02-29", "year"), "2028-12-31"), [
    "2024-02-29",
    "2025-02-28",
    "2026-02-28",
    "2027-02-28",
    "2028-02-29",
  ]);
});

Deno.test("times counts occurrences of a month-end schedule", () => {
  const dates = occurrences(schedule("2024-01-31", "3 months", { times: 4 }), "2030-01-01");
  assert.deepEqual(dates, ["2024-01-31", "2024-04-30", "2024-07-31", "2024-10-31"]);
});

Deno.test("expanded rent lands in every month of a quarter", () => {
  const ledger = new Ledger();
  ledger.chart.open("Expenses:Rent", "2024-01-01");
  ledger.chart.open("Assets:Bank", "2024-01-01");
  for (const tx of expand(schedule("2024-01-31", "month"), "2024-12-31")) ledger.post(tx);
  const q2 = incomeStatement(ledger, periodContaining("2024-05-10", "quarter"), "USD");
  assert.deepEqual(q2.totalExpenses, { amount: 300000, currency: "USD" });
  assert.deepEqual(ledger.transactions({ from: "2024-04-01", until: "2024-06-30" }).map((t) => t.date), [
    "2024-04-30",
    "2024-05-31",
    "2024-06-30",
  ]);
});

Deno.test("weekly and daily schedules are unchanged", () => {
  assert.deepEqual(occurrences(schedule("2024-02-27", "day", { times: 4 }), "2024-12-31"), [
    "2024-02-27",
    "2024-02-28",
    "2024-02-29",
    "2024-03-01",
  ]);
  assert.deepEqual(occurrences(schedule("2024-12-30", "2 weeks"), "2025-01-31"), ["2024-12-30", "2025-01-13", "2025-01-27"]);
});
