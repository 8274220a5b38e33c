import assert from "node:assert/strict";
import { CronSyntaxError, nextRun, nextRuns, parseCron } from "../src/cron/mod.ts";

const iso = (d: Date | null) => d?.toISOString();

Deno.test("parseCron expands ranges, steps and names", () => {
  const expr = parseCron("*/20 9-11 * JAN,JUL MON-FRI");
  assert.deepEqual([...expr.minute.values], [0, 20, 40]);
  assert.deepEqual([...expr.hour.values], [9, 10, 11]);
  assert.deepEqual([...expr.month.values], [1, 7]);
  assert.deepEqual([...expr.dayOfWeek.values], [1, 2, 3, 4, 5]);
});

Deno.test("parseCron rejects bad fields", () => {
  for (const bad of ["* * *", "60 * * * *", "* * 0 * *", "5-1 * * * *", "*/0 * * * *"]) {
    assert.throws(() => parseCron(bad), CronSyntaxError, bad);
  }
});

Deno.test("nextRun in UTC", () => {
  const expr = parseCron("30 2 * * *");
  assert.equal(iso(nextRun(expr, new Date("2026-03-02T02:29:59Z"), 0)), "2026-03-02T02:30:00.000Z");
  assert.equal(iso(nextRun(expr, new Date("2026-03-02T02:30:00Z"), 0)), "2026-03-03T02:30:00.000Z");
});

Deno.test("nextRun at a positive offset", () => {
  const expr = parseCron("0 9 * * *");
  assert.equal(iso(nextRun(expr, new Date("2026-03-02T00:00:00Z"), 330)), "2026-03-02T03:30:00.000Z");
});

Deno.test("weekday jobs in UTC", () => {
  const runs = nextRuns(parseCron("0 12 * * MON,FRI"), new Date("2026-03-01T00:00:00Z"), 0, 3);
  assert.deepEqual(runs.map(iso), [
    "2026-03-02T12:00:00.000Z",
    "2026-03-06T12:00:00.000Z",
    "2026-03-09T12:00:00.000Z",
  ]);
});

Deno.test("day-of-month or day-of-week", () => {
  const runs = nextRuns(parseCron("0 0 1 * SUN"), new Date("2026-02-27T00:00:00Z"), 0, 3);
  assert.deepEqual(runs.map(iso), [
    "2026-03-01T00:00:00.000Z",
    "2026-03-08T00:00:00.000Z",
    "2026-03-15T00:00:00.000Z",
  ]);
});

Deno.test("impossible dates never fire", () => {
  assert.equal(nextRun(parseCron("0 0 30 2 *"), new Date("2026-01-01T00:00:00Z"), 0), null);
});
