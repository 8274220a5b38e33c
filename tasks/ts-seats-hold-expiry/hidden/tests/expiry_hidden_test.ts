import assert from "node:assert/strict";
import { BoxOffice, HOLD_DURATION_MS, Layout, ManualClock, ReservationError } from "../src/mod.ts";

function office() {
  const clock = new ManualClock(5_000_000);
  const layout = new Layout([{ name: "stalls", rows: { A: 5, B: 5 } }]);
  return { clock, office: new BoxOffice(layout, { stalls: 3000 }, clock) };
}

Deno.test("expired holds no longer block availability", () => {
  const { office: o, clock } = office();
  o.hold("ann", ["A-1", "A-2"]);
  clock.advance(HOLD_DURATION_MS + 1);
  assert.equal(o.available().length, 10);
});

Deno.test("a hold is still active at its last millisecond", () => {
  const { office: o, clock } = office();
  o.hold("ann", ["A-1", "A-2"]);
  clock.advance(HOLD_DURATION_MS - 1);
  assert.equal(o.available().length, 8);
});

Deno.test("seats of an expired hold can be held by someone else", () => {
  const { office: o, clock } = office();
  o.hold("ann", ["A-3"]);
  clock.advance(HOLD_DURATION_MS);
  assert.deepEqual(o.hold("bob", ["A-3"]).seats, ["A-3"]);
});

Deno.test("confirming an expired hold fails with hold_expired", () => {
  const { office: o, clock } = office();
  const hold = o.hold("ann", ["B-1"]);
  clock.advance(HOLD_DURATION_MS + 60_000);
  assert.throws(() => o.confirm(hold.id), (e) => e instanceof ReservationError && e.code === "hold_expired");
});

Deno.test("confirming an expired hold books nothing", () => {
  const { office: o, clock } = office();
  const hold = o.hold("ann", ["B-1"]);
  clock.advance(HOLD_DURATION_MS + 60_000);
  try {
    o.confirm(hold.id);
  } catch {
    // expected
  }
  assert.equal(o.bookings.all().length, 0);
});

Deno.test("holdBest reuses seats of expired holds", () => {
  const { office: o, clock } = office();
  o.hold("ann", ["A-2", "A-3", "A-4"]);
  clock.advance(HOLD_DURATION_MS + 1);
  assert.deepEqual(o.holdBest("bob", 3)?.seats, ["A-2", "A-3", "A-4"]);
});

Deno.test("the old hold cannot be confirmed after its seats were re-held", () => {
  const { office: o, clock } = office();
  const first = o.hold("ann", ["A-5"]);
  clock.advance(HOLD_DURATION_MS + 1);
  const second = o.hold("bob", ["A-5"]);
  assert.throws(() => o.confirm(first.id), ReservationError);
  assert.equal(o.confirm(second.id).customer, "bob");
});

Deno.test("a hold confirmed in time still books", () => {
  const { office: o, clock } = office();
  const hold = o.hold("ann", ["B-5"]);
  clock.advance(HOLD_DURATION_MS - 1);
  assert.equal(o.confirm(hold.id).customer, "ann");
});
