import assert from "node:assert/strict";
import { freeIntervals, fromMinutes, intersect, merge, subtract, toMinutes } from "../src/mod.ts";

Deno.test("merge joins overlapping and touching intervals", () => {
  assert.deepEqual(merge([{ start: 5, end: 8 }, { start: 1, end: 3 }, { start: 3, end: 4 }, { start: 7, end: 10 }]), [
    { start: 1, end: 4 },
    { start: 5, end: 10 },
  ]);
});

Deno.test("subtract and intersect", () => {
  assert.deepEqual(subtract({ start: 0, end: 10 }, [{ start: 2, end: 4 }, { start: 8, end: 12 }]), [
    { start: 0, end: 2 },
    { start: 4, end: 8 },
  ]);
  assert.deepEqual(intersect([{ start: 0, end: 5 }, { start: 7, end: 9 }], [{ start: 3, end: 8 }]), [
    { start: 3, end: 5 },
    { start: 7, end: 8 },
  ]);
});

Deno.test("time helpers round-trip", () => {
  assert.equal(fromMinutes(toMinutes("2024-05-06T09:30")), "2024-05-06T09:30");
});

Deno.test("freeIntervals respects working hours and weekends", () => {
  const person = { name: "ann", busy: [["2024-05-10T10:00", "2024-05-10T11:00"]] as [string, string][] };
  const free = freeIntervals(person, { start: toMinutes("2024-05-10T00:00"), end: toMinutes("2024-05-13T00:00") });
  assert.deepEqual(free.map((i) => [fromMinutes(i.start), fromMinutes(i.end)]), [
    ["2024-05-10T09:00", "2024-05-10T10:00"],
    ["2024-05-10T11:00", "2024-05-10T17:00"],
  ]);
});
