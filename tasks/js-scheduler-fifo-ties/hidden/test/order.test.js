import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ManualClock, Scheduler } from "../src/index.js";

function setUp(start = 0) {
  const clock = new ManualClock(start);
  return { clock, scheduler: new Scheduler(clock) };
}

describe("jobs due together", () => {
  it("run in scheduling order at the same priority", () => {
    const { clock, scheduler } = setUp();
    const names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for (const name of names) scheduler.schedule(name, { at: 5 });
    clock.advance(5);
    assert.deepEqual(scheduler.runDue(), names);
  });

  it("keep scheduling order inside each priority", () => {
    const { clock, scheduler } = setUp();
    const plan = [["l1", 0], ["h1", 2], ["l2", 0], ["h2", 2], ["l3", 0], ["h3", 2], ["l4", 0]];
    for (const [name, priority] of plan) scheduler.schedule(name, { delay: 3, priority });
    clock.advance(3);
    assert.deepEqual(scheduler.runDue(), ["h1", "h2", "h3", "l1", "l2", "l3", "l4"]);
  });

  it("keep scheduling order after a cancel", () => {
    const { clock, scheduler } = setUp();
    for (const name of ["a", "x", "b", "c", "x", "d", "e", "f"]) scheduler.schedule(name, { at: 1 });
    assert.equal(scheduler.cancel("x"), 2);
    clock.advance(1);
    assert.deepEqual(scheduler.runDue(), ["a", "b", "c", "d", "e", "f"]);
  });

  it("put a repeated job after the jobs already waiting at its next time", () => {
    const { clock, scheduler } = setUp();
    scheduler.schedule("tick", { at: 10, every: 10 });
    for (const name of ["p", "q", "r", "s", "t"]) scheduler.schedule(name, { at: 20 });
    clock.advance(20);
    assert.deepEqual(scheduler.runDue(), ["tick", "p", "q", "r", "s", "t", "tick"]);
  });
});

describe("ordering rules that already hold", () => {
  it("time comes before priority", () => {
    const { clock, scheduler } = setUp(100);
    scheduler.schedule("urgent-later", { at: 102, priority: 9 });
    scheduler.schedule("calm-now", { at: 101 });
    clock.advance(5);
    assert.deepEqual(scheduler.runDue(), ["calm-now", "urgent-later"]);
  });

  it("jobs not yet due stay queued", () => {
    const { clock, scheduler } = setUp();
    scheduler.schedule("soon", { delay: 1 });
    scheduler.schedule("later", { delay: 50 });
    clock.advance(1);
    assert.deepEqual(scheduler.runDue(), ["soon"]);
    assert.equal(scheduler.pending, 1);
    assert.equal(scheduler.nextAt(), 50);
  });
});
