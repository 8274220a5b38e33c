import assert from "node:assert/strict";
import { addDays, addMonths, daysBetween, endOfMonth, parseDate, periodContaining } from "../src/mod.ts";

Deno.test("parseDate accepts real dates only", () => {
  assert.equal(parseDate("2024-02-29"), "2024-02-29");
  assert.throws(() => parseDate("2023-02-29"), SyntaxError);
  assert.throws(() => parseDate("2024-1-5"), SyntaxError);
});

Deno.test("addDays and daysBetween cross months and years", () => {
  assert.equal(addDays("2023-12-30", 3), "2024-01-02");
  assert.equal(addDays("2024-03-01", -1), "2024-02-29");
  assert.equal(daysBetween("2024-01-30", "2024-02-02"), 3);
  assert.equal(daysBetween("2024-02-02", "2024-01-30"), -3);
});

Deno.test("addMonths clamps to the end of shorter months", () => {
  assert.equal(addMonths("2024-01-31", 1), "2024-02-29");
  assert.equal(addMonths("2023-01-31", 1), "2023-02-28");
  assert.equal(addMonths("2024-11-15", 3), "2025-02-15");
  assert.equal(addMonths("2024-03-31", -1), "2024-02-29");
});

Deno.test("periodContaining finds months, quarters and years", () => {
  assert.deepEqual(periodContaining("2024-02-10", "month"), { start: "2024-02-01", end: "2024-02-29" });
  assert.deepEqual(periodContaining("2024-05-20", "quarter"), { start: "2024-04-01", end: "2024-06-30" });
  assert.deepEqual(periodContaining("2024-05-20", "year"), { start: "2024-01-01", end: "2024-12-31" });
  assert.equal(endOfMonth("2023-02-03"), "2023-02-28");
});
