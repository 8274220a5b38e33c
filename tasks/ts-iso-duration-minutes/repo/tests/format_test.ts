import assert from "node:assert/strict";
import { duration, formatDuration, fromSeconds, parseDuration, toSeconds } from "../src/mod.ts";

Deno.test("formats date-only and mixed durations", () => {
  assert.equal(formatDuration(duration({ days: 3 })), "P3D");
  assert.equal(formatDuration(duration({ years: 1, hours: 2 })), "P1YT2H");
  assert.equal(formatDuration(duration({ seconds: 1.5, negative: true })), "-PT1.5S");
});

Deno.test("the zero duration is PT0S", () => {
  assert.equal(formatDuration(duration()), "PT0S");
});

Deno.test("toSeconds uses the nominal calendar", () => {
  assert.equal(toSeconds(parseDuration("P1DT1H")), 90000);
  assert.equal(toSeconds(parseDuration("-PT1.5S")), -1.5);
});

Deno.test("fromSeconds splits into days and hours", () => {
  assert.deepEqual(fromSeconds(90061), duration({ days: 1, hours: 1, minutes: 1, seconds: 1 }));
});
