import assert from "node:assert/strict";
import { duration, DurationSyntaxError, parseDuration } from "../src/mod.ts";

Deno.test("parses date and time components", () => {
  assert.deepEqual(
    parseDuration("P1Y2M3DT4H5M6S"),
    duration({ years: 1, months: 2, days: 3, hours: 4, minutes: 5, seconds: 6 }),
  );
});

Deno.test("M means months before T and minutes after", () => {
  assert.deepEqual(parseDuration("P1M"), duration({ months: 1 }));
  assert.deepEqual(parseDuration("PT1M"), duration({ minutes: 1 }));
});

Deno.test("weeks, fractions and signs", () => {
  assert.deepEqual(parseDuration("P2W"), duration({ weeks: 2 }));
  assert.deepEqual(parseDuration("PT0,5H"), duration({ hours: 0.5 }));
  assert.deepEqual(parseDuration("-P1D"), duration({ days: 1, negative: true }));
});

Deno.test("rejects malformed durations", () => {
  for (const bad of ["P", "PT", "1D", "P1H", "PT1D", "P1D2Y", "P1.5DT2H", "P1DX"]) {
    assert.throws(() => parseDuration(bad), DurationSyntaxError, bad);
  }
});
