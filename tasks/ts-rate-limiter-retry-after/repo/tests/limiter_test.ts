import assert from "node:assert/strict";
import { ManualClock } from "../src/clock.ts";
import { TokenBucket } from "../src/bucket.ts";
import { RateLimiter } from "../src/limiter.ts";

Deno.test("bucket allows a burst then refills", () => {
  const clock = new ManualClock();
  const bucket = new TokenBucket({ capacity: 3, refillPerSecond: 1, clock });
  assert.equal(bucket.tryRemove(3), true);
  assert.equal(bucket.tryRemove(), false);
  clock.advance(1000);
  assert.equal(bucket.tryRemove(), true);
});

Deno.test("bucket never exceeds capacity", () => {
  const clock = new ManualClock();
  const bucket = new TokenBucket({ capacity: 2, refillPerSecond: 10, clock });
  bucket.tryRemove(2);
  clock.advance(60_000);
  assert.equal(bucket.available(), 2);
});

Deno.test("limiter tracks keys separately", () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 2, refillPerSecond: 1, clock });
  assert.equal(limiter.check("a").allowed, true);
  assert.equal(limiter.check("a").allowed, true);
  assert.equal(limiter.check("a").allowed, false);
  const b = limiter.check("b");
  assert.equal(b.allowed, true);
  assert.equal(b.remaining, 1);
  assert.equal(b.limit, 2);
});

Deno.test("prune drops refilled buckets", () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter({ limit: 2, refillPerSecond: 1, clock });
  limiter.check("a");
  limiter.check("b", 2);
  clock.advance(1000);
  assert.equal(limiter.prune(), 1);
  assert.equal(limiter.trackedKeys, 1);
});
