import assert from "node:assert/strict";
import { Pacer } from "../../src/workspace/pacer.ts";

Deno.test("Pacer.pause() lets a timer run once its slice is over, and not before", async () => {
  const pacer = new Pacer(20);
  assert.equal(pacer.pause(), null);
  let fired = false;
  setTimeout(() => (fired = true), 0);
  const until = performance.now() + 25;
  while (performance.now() < until) {
    // A synchronous loop past the slice.
  }
  const pause = pacer.pause();
  assert.ok(pause instanceof Promise);
  await pause;
  assert.equal(fired, true);
  assert.equal(pacer.pause(), null, "a new slice starts after the pause");
});
