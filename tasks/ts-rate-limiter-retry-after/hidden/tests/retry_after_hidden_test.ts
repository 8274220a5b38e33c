import assert from "node:assert/strict";
import { ManualClock } from "../src/clock.ts";
import { TokenBucket } from "../src/bucket.ts";
import { RateLimiter } from "../src/limiter.ts";
import type { CheckResult } from "../src/limiter.ts";

// src/headers.ts is new; load it lazily so the other tests still run without it.
async function headersOf(result: CheckResult): Promise<Record<string, string>> {
  const { rateLimitHeaders } = await import("../src/headers.ts");
  return rateLimitHeaders(result);
}

Deno.test("msUntil reports the wait for tokens", () => {
  const clock = new ManualClock();
  const bucket = new TokenBucket({ capacity: 4, refillPerSecond: 2, clock });
  assert.equal(bucket.msUntil(), 0);
  bucket.tryRemove(4);
  assert.equal(bucket.msUntil(), 500);
  assert.equal(bucket.msUntil(3), 1500);
  clock.advance(200);
  assert.equal(bucket.msUntil(), 300);
  assert.equal(bucket.msUntil(5), Infinity);
});

Deno.test("msUntil rounds up to whole milliseconds", () => {
  const clock = new ManualClock();
  const bucket = new TokenBucket({ capacity: 1, refillPerSecond: 3, clock });
  bucket.tryRemove();
  assert.equal(bucket.msUntil(), 334);
});

Deno.test("denied checks report retryAfterMs", () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 2, refillPerSecond: 0.5, clock });
  assert.equal(limiter.check("k").retryAfterMs, 0);
  limiter.check("k");
  const denied = limiter.check("k");
  assert.equal(denied.allowed, false);
  assert.equal(denied.retryAfterMs, 2000);
  clock.advance(1500);
  assert.equal(limiter.check("k", 2).retryAfterMs, 2500);
  assert.equal(limiter.check("k", 3).retryAfterMs, Infinity);
});

Deno.test("headers for an allowed request", async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 5, refillPerSecond: 1, clock });
  limiter.check("k", 2);
  clock.advance(500);
  assert.deepEqual(await headersOf(limiter.check("k")), {
    "RateLimit-Limit": "5",
    "RateLimit-Remaining": "2",
  });
});

Deno.test("headers for a denied request include Retry-After in seconds", async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 1, refillPerSecond: 0.4, clock });
  limiter.check("k");
  assert.deepEqual(await headersOf(limiter.check("k")), {
    "RateLimit-Limit": "1",
    "RateLimit-Remaining": "0",
    "Retry-After": "3",
  });
  assert.deepEqual(await headersOf(limiter.check("k", 2)), {
    "RateLimit-Limit": "1",
    "RateLimit-Remaining": "0",
  });
});

Deno.test("allowed checks still report remaining tokens", () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 3, refillPerSecond: 1, clock });
  const r = limiter.check("x");
  assert.equal(r.allowed, true);
  assert.equal(r.remaining, 2);
  assert.equal(r.limit, 3);
});
