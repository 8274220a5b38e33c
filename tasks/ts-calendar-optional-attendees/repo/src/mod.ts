/**
 * freebusy: find meeting slots across attendees' calendars.
 */
export { clockMinutes, fromMinutes, toMinutes, weekday } from "./time.ts";
export { covers, intersect, merge, subtract } from "./intervals.ts";
export type { Interval } from "./intervals.ts";
export { DEFAULT_HOURS, freeIntervals, workingIntervals } from "./calendar.ts";
export type { Person, WorkingHours } from "./calendar.ts";
export { findSlots } from "./finder.ts";
export type { Slot, SlotQuery } from "./finder.ts";
