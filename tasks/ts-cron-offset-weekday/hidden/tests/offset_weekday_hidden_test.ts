import assert from "node:assert/strict";
import { nextRun, parseCron, Scheduler, toWallClock } from "../src/mod.ts";

Deno.test("toWallClock weekday follows the local date", () => {
  // Sunday 16:00 UTC is Monday 01:00 in Tokyo.
  assert.equal(toWallClock(new Date("2026-03-01T16:00:00Z"), 540).weekday, 1);
});

Deno.test("toWallClock weekday at a negative offset", () => {
  // Monday 03:00 UTC is Sunday 19:00 in Los Angeles (-08:00).
  assert.equal(toWallClock(new Date("2026-03-02T03:00:00Z"), -480).weekday, 0);
});

Deno.test("Monday 01:00 in Tokyo fires on Sunday UTC", () => {
  const at = nextRun(parseCron("0 1 * * MON"), new Date("2026-02-28T00:00:00Z"), 540);
  assert.equal(at?.toISOString(), "2026-03-01T16:00:00.000Z");
});

Deno.test("Friday evening in Los Angeles fires on Saturday UTC", () => {
  const at = nextRun(parseCron("30 20 * * FRI"), new Date("2026-03-01T00:00:00Z"), -480);
  assert.equal(at?.toISOString(), "2026-03-07T04:30:00.000Z");
});

Deno.test("scheduler plan for a weekday job across the date line", () => {
  const scheduler = new Scheduler().add({ id: "standup", cron: "0 8 * * MON-FRI", utcOffset: "+10:00" });
  const runs = scheduler.plan(new Date("2026-03-06T00:00:00Z"), new Date("2026-03-10T00:00:00Z"));
  assert.deepEqual(runs.map((r) => r.local), [
    "2026-03-09T08:00+10:00",
    "2026-03-10T08:00+10:00",
  ]);
});

Deno.test("due fires a Tokyo Monday job at the right UTC minute", () => {
  const scheduler = new Scheduler().add({ id: "weekly", cron: "0 1 * * MON", utcOffset: "+09:00" });
  assert.deepEqual(scheduler.due(new Date("2026-03-01T16:00:30Z")), ["weekly"]);
});

Deno.test("day-of-month jobs at offsets are unaffected", () => {
  const at = nextRun(parseCron("0 1 1 * *"), new Date("2026-02-15T00:00:00Z"), 540);
  assert.equal(at?.toISOString(), "2026-02-28T16:00:00.000Z");
});

Deno.test("midday weekday job at +02:00", () => {
  const at = nextRun(parseCron("0 12 * * WED"), new Date("2026-03-01T00:00:00Z"), 120);
  assert.equal(at?.toISOString(), "2026-03-04T10:00:00.000Z");
});
