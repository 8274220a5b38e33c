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

Deno.test("pace() goes on resuming the others when a resumed continuation throws at once", async () => {
  const order: number[] = [];
  let arrive!: () => void;
  const answers = new Promise<void>((resolve) => (arrive = resolve));
  const episodes = Array.from({ length: 10 }, async (_, i) => {
    await answers;
    await pace();
    order.push(i);
    // Thrown in the first part of the continuation, before any other wait.
    if (i % 3 === 0) throw new Error(`episode ${i} broke`);
  });
  arrive();
  const settled = await Promise.allSettled(episodes);
  assert.deepEqual(order, Array.from({ length: 10 }, (_, i) => i));
  assert.deepEqual(
    settled.map((s) => s.status),
    Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? "rejected" : "fulfilled")),
  );
  // Nothing is left stuck: a later call in a quiet loop resolves.
  await pace();
});

Deno.test("pace() after a burst that used up its slice still resolves, in a later task", async () => {
  // A burst longer than a slice ends with its rest resumed from a timer.
  await burst(10, () => busy(1));
  let resumed = false;
  const later = pace().then(() => (resumed = true));
  await later;
  assert.equal(resumed, true);
  // Continuations that wait again go behind those already waiting.
  const order: string[] = [];
  const a = (async () => {
    await pace();
    order.push("a1");
    await pace();
    order.push("a2");
  })();
  const b = (async () => {
    await pace();
    order.push("b1");
  })();
  await Promise.all([a, b]);
  assert.deepEqual(order, ["a1", "b1", "a2"]);
});
