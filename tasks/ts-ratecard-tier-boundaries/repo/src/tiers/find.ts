/** Locating the tier a quantity falls in. */
import type { Tier } from "./types.ts";

/**
 * Index of the tier containing unit number `quantity` (1-based). Quantities of 0 belong to
 * the first tier.
 */
export function tierIndexFor(tiers: readonly Tier[], quantity: number): number {
  const index = tiers.findIndex((t) => t.upTo === null || quantity < t.upTo);
  return index === -1 ? tiers.length - 1 : index;
}

/** The start (exclusive lower bound) of each tier: 0 for the first, previous upTo after. */
export function tierStarts(tiers: readonly Tier[]): number[] {
  return tiers.map((_, i) => (i === 0 ? 0 : tiers[i - 1].upTo!));
}
