import assert from "node:assert/strict";
import { findSlots, type Person } from "../src/mod.ts";

const ann: Person = { name: "ann", busy: [["2024-05-06T09:00", "2024-05-06T10:30"], ["2024-05-06T13:00", "2024-05-06T16:00"]] };
const bob: Person = { name: "bob", busy: [["2024-05-06T11:00", "2024-05-06T12:00"]], hours: { start: "10:00", end: "18:00" } };

Deno.test("findSlots returns aligned slots free for everyone", () => {
  const slots = findSlots({ attendees: [ann, bob], from: "2024-05-06T00:00", to: "2024-05-07T00:00", durationMinutes: 30 });
  assert.deepEqual(slots.map((s) => s.start), [
    "2024-05-06T10:30",
    "2024-05-06T12:00",
    "2024-05-06T12:30",
    "2024-05-06T16:00",
    "2024-05-06T16:30",
  ]);
  assert.equal(slots[0].end, "2024-05-06T11:00");
});

Deno.test("findSlots honours duration, step and limit", () => {
  const slots = findSlots({ attendees: [ann], from: "2024-05-06T00:00", to: "2024-05-07T00:00", durationMinutes: 60, stepMinutes: 60, limit: 2 });
  assert.deepEqual(slots, [
    { start: "2024-05-06T11:00", end: "2024-05-06T12:00" },
    { start: "2024-05-06T12:00", end: "2024-05-06T13:00" },
  ]);
});

Deno.test("findSlots validates its query", () => {
  assert.throws(() => findSlots({ attendees: [], from: "2024-05-06T00:00", to: "2024-05-07T00:00", durationMinutes: 30 }), /at least one attendee/);
  assert.throws(() => findSlots({ attendees: [ann], from: "2024-05-06T00:00", to: "2024-05-07T00:00", durationMinutes: 0 }), RangeError);
});
