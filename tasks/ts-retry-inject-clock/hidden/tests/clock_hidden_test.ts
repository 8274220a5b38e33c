import assert from "node:assert/strict";
import * as backoff from "../src/mod.ts";
import { RetryDeadlineError, retry, withHttpRetry } from "../src/mod.ts";

// Looked up at run time so that the behaviour tests below still load before the refactor.
// deno-lint-ignore no-explicit-any
const api = backoff as any;
const clock = (start = 0) => new api.FakeClock(start);

function flaky(failures: number) {
  let calls = 0;
  return (attempt: number) => {
    calls++;
    return calls <= failures ? Promise.reject(new Error(`fail ${attempt}`)) : Promise.resolve(`ok after ${attempt}`);
  };
}

const plain = { baseDelayMs: 100, maxDelayMs: 1000, factor: 2, jitter: "none" };

Deno.test("backoffDelay grows exponentially up to the cap", () => {
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => api.backoffDelay(n, plain)), [100, 200, 400, 800, 1000]);
});

Deno.test("backoffDelay applies full jitter with the injected random", () => {
  assert.equal(api.backoffDelay(3, { ...plain, jitter: "full" }, () => 0.5), 200);
});

Deno.test("backoffDelay applies equal jitter with the injected random", () => {
  assert.equal(api.backoffDelay(2, { ...plain, jitter: "equal" }, () => 0.5), 150);
});

Deno.test("retry sleeps on the injected clock", async () => {
  const c = clock();
  assert.equal(await retry(flaky(3), { baseDelayMs: 1000, jitter: "none", clock: c }), "ok after 4");
  assert.deepEqual(c.sleeps, [1000, 2000, 4000]);
  assert.equal(c.now(), 7000);
});

Deno.test("retry with a fake clock never waits for real", async () => {
  const c = clock();
  await retry(flaky(2), { baseDelayMs: 3_600_000, maxDelayMs: 3_600_000, jitter: "none", clock: c });
  assert.deepEqual(c.sleeps, [3_600_000, 3_600_000]);
});

Deno.test("retry uses the injected random for jitter", async () => {
  const c = clock();
  await retry(flaky(2), { baseDelayMs: 1000, jitter: "full", clock: c, random: () => 0.25 });
  assert.deepEqual(c.sleeps, [250, 500]);
});

Deno.test("the deadline is measured on the injected clock", async () => {
  const c = clock(1_000_000);
  const slow = (attempt: number) => {
    c.advance(500);
    return Promise.reject(new Error(`fail ${attempt}`));
  };
  await assert.rejects(
    retry(slow, { baseDelayMs: 1000, jitter: "none", deadlineMs: 2000, clock: c }),
    (e) => e instanceof RetryDeadlineError && e.attempts === 2 && e.elapsedMs === 2000,
  );
});

Deno.test("withHttpRetry reads Retry-After dates against the injected clock", async () => {
  const c = clock(Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"));
  const responses = [
    { status: 429, headers: new Headers({ "retry-after": "Wed, 21 Oct 2015 07:28:10 GMT" }) },
    { status: 200, headers: new Headers() },
  ];
  const res = await withHttpRetry(() => Promise.resolve(responses.shift()!), { clock: c });
  assert.equal(res.status, 200);
  assert.deepEqual(c.sleeps, [10_000]);
});

Deno.test("the fake clock lives in src/testing", async () => {
  const module = await import("../src/testing/fake_clock.ts");
  assert.equal(module.FakeClock, api.FakeClock);
});

Deno.test("systemClock reads the real time", () => {
  const before = Date.now();
  const now = api.systemClock.now();
  assert.ok(now >= before && now <= Date.now());
});

Deno.test("retry still succeeds without a clock", async () => {
  assert.equal(await retry(flaky(1), { baseDelayMs: 0 }), "ok after 2");
});
