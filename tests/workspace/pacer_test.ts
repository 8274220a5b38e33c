import assert from "node:assert/strict";
import { Pacer } from "../../src/workspace/pacer.ts";

Deno.test("Pacer.pause() lets a timer run once its slice is over, and not before", async () => {
  // Its own clock: a thread descheduled for a slice's length must not change what is checked.
  let now = 1_000;
  const pacer = new Pacer(20, () => now);
  now += 19;
  assert.equal(pacer.pause(), null);
  let fired = false;
  setTimeout(() => (fired = true), 0);
  now += 6;
  const pause = pacer.pause();
  assert.ok(pause instanceof Promise);
  assert.equal(fired, false);
  await pause;
  assert.equal(fired, true);
  assert.equal(pacer.pause(), null, "a new slice starts after the pause");
  now += 20;
  assert.ok(pacer.pause() instanceof Promise, "and ends 20 ms later");
});
