/** Volume pricing: all units at the rate of the tier the total falls in. */
import { tierIndexFor } from "./find.ts";
import type { Tier } from "./types.ts";

export function volumeCost(tiers: readonly Tier[], quantity: number): number {
  if (quantity === 0) return 0;
  const tier = tiers[tierIndexFor(tiers, quantity)];
  return quantity * tier.unitPrice + (tier.flatFee ?? 0);
}
