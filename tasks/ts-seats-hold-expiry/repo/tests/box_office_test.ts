import assert from "node:assert/strict";
import { BoxOffice, Layout, ManualClock, ReservationError } from "../src/mod.ts";

function office() {
  const clock = new ManualClock(1_000_000);
  const layout = new Layout([{ name: "stalls", rows: { A: 5, B: 5 } }]);
  return { clock, office: new BoxOffice(layout, { stalls: 3000 }, clock) };
}

Deno.test("hold removes seats from availability", () => {
  const { office: o } = office();
  o.hold("ann", ["A-1", "A-2"]);
  assert.equal(o.available().length, 8);
});

Deno.test("held seats cannot be held twice", () => {
  const { office: o } = office();
  o.hold("ann", ["A-3"]);
  assert.throws(() => o.hold("bob", ["A-3"]), (e) => e instanceof ReservationError && e.code === "seat_taken");
});

Deno.test("confirm within the hold window books the seats", () => {
  const { office: o, clock } = office();
  const hold = o.hold("ann", ["B-2", "B-3"]);
  clock.advance(60_000);
  const booking = o.confirm(hold.id);
  assert.deepEqual(booking.seats, ["B-2", "B-3"]);
  assert.equal(booking.totalCents, 6250);
  assert.equal(o.available().length, 8);
});

Deno.test("holdBest picks the centre of the first row with room", () => {
  const { office: o } = office();
  o.hold("ann", ["A-2", "A-4"]);
  assert.deepEqual(o.holdBest("bob", 3)?.seats, ["B-2", "B-3", "B-4"]);
  assert.deepEqual(o.holdBest("cat", 1)?.seats, ["A-3"]);
  assert.equal(o.holdBest("dan", 2), null);
});

Deno.test("release frees the seats", () => {
  const { office: o } = office();
  const hold = o.hold("ann", ["A-1"]);
  o.release(hold.id);
  assert.equal(o.available().length, 10);
});
