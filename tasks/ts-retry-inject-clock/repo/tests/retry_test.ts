import assert from "node:assert/strict";
import { retry, RetryDeadlineError } from "../src/mod.ts";

function flaky(failures: number) {
  let calls = 0;
  return async (attempt: number) => {
    calls++;
    if (calls <= failures) throw new Error(`fail ${attempt}`);
    return `ok after ${attempt}`;
  };
}

Deno.test("retry returns the first success", async () => {
  assert.equal(await retry(flaky(0)), "ok after 1");
});

Deno.test("retry retries failures with zero delays", async () => {
  const seen: number[] = [];
  const result = await retry(flaky(2), { baseDelayMs: 0, onRetry: (i) => seen.push(i.attempt) });
  assert.equal(result, "ok after 3");
  assert.deepEqual(seen, [1, 2]);
});

Deno.test("retry gives up after the configured retries", async () => {
  await assert.rejects(retry(flaky(5), { retries: 2, baseDelayMs: 0 }), /fail 3/);
});

Deno.test("retryOn stops retrying at once", async () => {
  let calls = 0;
  const fn = () => {
    calls++;
    return Promise.reject(new TypeError("bad input"));
  };
  await assert.rejects(retry(fn, { retryOn: (e) => !(e instanceof TypeError) }), TypeError);
  assert.equal(calls, 1);
});

Deno.test("a deadline shorter than the first delay fails fast", async () => {
  await assert.rejects(
    retry(flaky(1), { baseDelayMs: 60_000, jitter: "none", deadlineMs: 1_000 }),
    (e) => e instanceof RetryDeadlineError && e.attempts === 1 && (e.cause as Error).message === "fail 1",
  );
});
