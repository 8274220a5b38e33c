import assert from "node:assert/strict";
import { formatOffset, OffsetError, parseOffset } from "../src/time/offset.ts";
import { fromWallClock, toWallClock } from "../src/time/wallclock.ts";

Deno.test("parseOffset and formatOffset", () => {
  assert.equal(parseOffset("+05:30"), 330);
  assert.equal(parseOffset("-08:00"), -480);
  assert.equal(parseOffset("Z"), 0);
  assert.equal(formatOffset(-480), "-08:00");
  assert.throws(() => parseOffset("+5:30"), OffsetError);
});

Deno.test("toWallClock shifts the time of day", () => {
  const w = toWallClock(new Date("2026-03-02T10:15:00Z"), 330);
  assert.deepEqual([w.year, w.month, w.day, w.hour, w.minute], [2026, 3, 2, 15, 45]);
});

Deno.test("fromWallClock inverts toWallClock", () => {
  const instant = new Date("2026-07-31T22:10:00Z");
  const w = toWallClock(instant, -420);
  assert.equal(fromWallClock(w, -420).toISOString(), instant.toISOString());
});
