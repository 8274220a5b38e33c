import assert from "node:assert/strict";
import { findSlots, type Person } from "../src/mod.ts";

const ann: Person = { name: "ann", busy: [["2024-05-06T09:00", "2024-05-06T10:30"], ["2024-05-06T13:00", "2024-05-06T16:00"]] };
const bob: Person = { name: "bob", busy: [["2024-05-06T11:00", "2024-05-06T12:00"]], hours: { start: "10:00", end: "18:00" } };
const cat: Person = { name: "cat", busy: [["2024-05-06T10:00", "2024-05-06T12:30"]] };
const dan: Person = { name: "dan", busy: [["2024-05-06T13:00", "2024-05-06T17:00"]] };
const day = { from: "2024-05-06T00:00", to: "2024-05-07T00:00" };

Deno.test("optional attendees never remove slots", () => {
  const slots = findSlots({ attendees: [ann, bob], optional: [cat, dan], ...day, durationMinutes: 30 });
  assert.deepEqual(slots.map((s) => s.start).sort(), [
    "2024-05-06T10:30",
    "2024-05-06T12:00",
    "2024-05-06T12:30",
    "2024-05-06T16:00",
    "2024-05-06T16:30",
  ]);
});

Deno.test("slots list which optional attendees are free", () => {
  const slots = findSlots({ attendees: [ann, bob], optional: [cat, dan], ...day, durationMinutes: 30 });
  const byStart = Object.fromEntries(slots.map((s) => [s.start, s.optionalAvailable]));
  assert.deepEqual(byStart, {
    "2024-05-06T10:30": ["dan"],
    "2024-05-06T12:00": ["dan"],
    "2024-05-06T12:30": ["cat", "dan"],
    "2024-05-06T16:00": ["cat"],
    "2024-05-06T16:30": ["cat"],
  });
});

Deno.test("slots that suit more optional attendees come first, ties chronological", () => {
  const slots = findSlots({ attendees: [ann], optional: [cat, dan], ...day, durationMinutes: 30 });
  assert.deepEqual(slots.slice(0, 3).map((s) => [s.start, s.optionalAvailable]), [
    ["2024-05-06T12:30", ["cat", "dan"]],
    ["2024-05-06T10:30", ["dan"]],
    ["2024-05-06T11:00", ["dan"]],
  ]);
});

Deno.test("the limit applies after ranking", () => {
  const slots = findSlots({ attendees: [ann, bob], optional: [cat], ...day, durationMinutes: 30, limit: 1 });
  assert.deepEqual(slots, [{ start: "2024-05-06T12:30", end: "2024-05-06T13:00", optionalAvailable: ["cat"] }]);
});

Deno.test("an optional attendee must be free for the whole slot", () => {
  const slots = findSlots({ attendees: [bob], optional: [cat], ...day, durationMinutes: 60, stepMinutes: 30, limit: 20 });
  const first = slots.find((s) => s.start === "2024-05-06T12:00");
  assert.deepEqual(first?.optionalAvailable, []);
});

Deno.test("optional attendees outside their working hours are not free", () => {
  const early: Person = { name: "eve", busy: [], hours: { start: "08:00", end: "11:00" } };
  const slots = findSlots({ attendees: [bob], optional: [early], ...day, durationMinutes: 30, limit: 20 });
  assert.deepEqual(slots.filter((s) => s.optionalAvailable?.length).map((s) => s.start), ["2024-05-06T10:00", "2024-05-06T10:30"]);
});

Deno.test("without optional attendees the result is unchanged", () => {
  const slots = findSlots({ attendees: [ann, bob], ...day, durationMinutes: 30, limit: 2 });
  assert.deepEqual(slots, [
    { start: "2024-05-06T10:30", end: "2024-05-06T11:00" },
    { start: "2024-05-06T12:00", end: "2024-05-06T12:30" },
  ]);
});
