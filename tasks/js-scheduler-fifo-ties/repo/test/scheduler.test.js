import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ManualClock, Scheduler } from "../src/index.js";

describe("Scheduler", () => {
  it("runs nothing before jobs are due", () => {
    const clock = new ManualClock(0);
    const scheduler = new Scheduler(clock);
    scheduler.schedule("a", { delay: 5 });
    assert.deepEqual(scheduler.runDue(), []);
    assert.equal(scheduler.nextAt(), 5);
  });

  it("runs earlier jobs first, then higher priority", () => {
    const clock = new ManualClock(0);
    const scheduler = new Scheduler(clock);
    scheduler.schedule("late", { at: 20 });
    scheduler.schedule("low", { at: 10 });
    scheduler.schedule("high", { at: 10, priority: 3 });
    clock.advance(30);
    assert.deepEqual(scheduler.runDue(), ["high", "low", "late"]);
  });

  it("repeats jobs with every", () => {
    const clock = new ManualClock(0);
    const scheduler = new Scheduler(clock);
    scheduler.schedule("tick", { at: 10, every: 10 });
    clock.advance(35);
    assert.deepEqual(scheduler.runDue(), ["tick", "tick", "tick"]);
    assert.equal(scheduler.nextAt(), 40);
  });

  it("cancels by name", () => {
    const clock = new ManualClock(0);
    const scheduler = new Scheduler(clock);
    scheduler.schedule("a", { at: 1 });
    scheduler.schedule("b", { at: 1 });
    assert.equal(scheduler.cancel("a"), 1);
    clock.advance(1);
    assert.deepEqual(scheduler.runDue(), ["b"]);
  });
});
