/** Deterministic user bucketing for percentage rollouts. */
import { fnv1a32 } from "./fnv.ts";

/** Number of buckets; a percentage is mapped to buckets with 0.01% resolution. */
export const BUCKETS = 10_000;

/**
 * The bucket (0 <= bucket < BUCKETS) of `userKey` for a flag with `salt`. Changing the salt
 * reshuffles users; the same salt and key always give the same bucket.
 */
export function bucketFor(salt: string, userKey: string): number {
  return fnv1a32(`${salt}:${userKey}`) % BUCKETS;
}

/** The number of buckets covered by `percent` (0-100, up to two decimals). */
export function bucketsFor(percent: number): number {
  return Math.round(percent * (BUCKETS / 100));
}
