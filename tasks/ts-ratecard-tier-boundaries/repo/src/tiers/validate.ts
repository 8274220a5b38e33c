/** Checks that a tier list is usable: ascending bounds and an unbounded last tier. */
import { type Tier, TierError } from "./types.ts";

export function validateTiers(tiers: readonly Tier[]): void {
  if (tiers.length === 0) throw new TierError("at least one tier is required");
  let previous = 0;
  tiers.forEach((tier, i) => {
    const last = i === tiers.length - 1;
    if (last && tier.upTo !== null) throw new TierError("the last tier must have upTo: null");
    if (!last && tier.upTo === null) throw new TierError(`tier ${i + 1} is unbounded but not last`);
    if (tier.upTo !== null && (!Number.isInteger(tier.upTo) || tier.upTo <= previous)) {
      throw new TierError(`tier ${i + 1}: upTo ${tier.upTo} must be an integer above ${previous}`);
    }
    if (tier.unitPrice < 0 || (tier.flatFee ?? 0) < 0) throw new TierError(`tier ${i + 1}: negative price`);
    previous = tier.upTo ?? previous;
  });
}
