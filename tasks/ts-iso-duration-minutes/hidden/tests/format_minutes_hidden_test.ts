import assert from "node:assert/strict";
import { duration, formatDuration, fromSeconds, parseDuration } from "../src/mod.ts";

Deno.test("minutes alone are written after T", () => {
  assert.equal(formatDuration(duration({ minutes: 30 })), "PT30M");
});

Deno.test("days and minutes", () => {
  assert.equal(formatDuration(duration({ days: 2, minutes: 5 })), "P2DT5M");
});

Deno.test("months and minutes stay distinct", () => {
  assert.equal(formatDuration(duration({ months: 1, minutes: 1 })), "P1MT1M");
});

Deno.test("fromSeconds of ten minutes formats as PT10M", () => {
  assert.equal(formatDuration(fromSeconds(600)), "PT10M");
});

Deno.test("minute durations round-trip through parse", () => {
  for (const text of ["PT45M", "-PT1M", "P1DT1M", "PT0.5M"]) {
    assert.equal(formatDuration(parseDuration(text)), text);
  }
});

Deno.test("hours and seconds still format", () => {
  assert.equal(formatDuration(duration({ hours: 1, seconds: 2 })), "PT1H2S");
  assert.equal(formatDuration(parseDuration("P1Y2M3DT4H5M6S")), "P1Y2M3DT4H5M6S");
});
