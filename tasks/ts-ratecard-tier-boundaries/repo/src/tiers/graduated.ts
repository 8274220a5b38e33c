/** Graduated pricing: each unit at the rate of the tier it falls in. */
import { tierStarts } from "./find.ts";
import type { Tier } from "./types.ts";

/** The units of `quantity` that fall in each tier. */
export function unitsPerTier(tiers: readonly Tier[], quantity: number): number[] {
  const starts = tierStarts(tiers);
  return tiers.map((tier, i) => {
    const end = tier.upTo ?? Infinity;
    return Math.max(0, Math.min(quantity, end) - starts[i]);
  });
}

/** Cost in (fractional) cents. */
export function graduatedCost(tiers: readonly Tier[], quantity: number): number {
  const units = unitsPerTier(tiers, quantity);
  let cost = 0;
  let lastReached = -1;
  units.forEach((n, i) => {
    cost += n * tiers[i].unitPrice;
    if (n > 0) lastReached = i;
  });
  if (lastReached >= 0) cost += tiers[lastReached].flatFee ?? 0;
  return cost;
}
