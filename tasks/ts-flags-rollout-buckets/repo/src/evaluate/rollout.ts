/** Choosing a variant from a weighted percentage rollout. */
import { bucketFor, bucketsFor } from "../hash/mod.ts";
import type { WeightedVariant } from "../rules/types.ts";

/**
 * The variant whose cumulative weight range contains the user's bucket. Weights are
 * percentages; if they sum to less than 100, users past the last range get `undefined`.
 */
export function pickVariant(
  salt: string,
  userKey: string,
  rollout: readonly WeightedVariant[],
): string | undefined {
  const bucket = bucketFor(salt, userKey);
  let upper = 0;
  for (const { variant, weight } of rollout) {
    upper += bucketsFor(weight);
    if (bucket < upper) return variant;
  }
  return undefined;
}

/** True when the user falls in the first `percent`% of buckets (a simple on/off rollout). */
export function inRollout(salt: string, userKey: string, percent: number): boolean {
  return bucketFor(salt, userKey) < bucketsFor(percent);
}
