import assert from "node:assert/strict";
import { pace } from "../../src/agent/pace.ts";

/** Keeps the thread busy for `ms` (a continuation's synchronous work). */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* work */ }
}

/** Forty episodes whose awaited answers all arrive in one task of the loop. */
function burst(n: number, work: (i: number) => void): Promise<void[]> {
  let arrive!: () => void;
  const answers = new Promise<void>((resolve) => (arrive = resolve));
  const episodes = Array.from({ length: n }, async (_, i) => {
    await answers;
    await pace();
    busy(1);
    work(i);
  });
  arrive();
  return Promise.all(episodes);
}

Deno.test("pace() lets a timer run between continuations that arrive together", async () => {
  const seen: string[] = [];
  // Due at once: without pacing it would wait for all 40 continuations (40 ms of work).
  setTimeout(() => seen.push("timer"), 0);
  await burst(40, (i) => seen.push(`episode ${i}`));
  const timer = seen.indexOf("timer");
  assert.ok(timer > 0 && timer < seen.length - 1, seen.join(", "));
  // The work is all done, once each.
  assert.equal(seen.length, 41);
});

Deno.test("pace() resumes waiting continuations in the order they came", async () => {
  const order: number[] = [];
  await burst(30, (i) => order.push(i));
  assert.deepEqual(order, Array.from({ length: 30 }, (_, i) => i));
});
