import { graduatedCost } from "./graduated.ts";
import { packageCost } from "./package.ts";
import type { Pricing } from "./types.ts";
import { validateTiers } from "./validate.ts";
import { volumeCost } from "./volume.ts";

export { tierIndexFor, tierStarts } from "./find.ts";
export { graduatedCost, unitsPerTier } from "./graduated.ts";
export { packageCost } from "./package.ts";
export { type Pricing, type Tier, TierError } from "./types.ts";
export { validateTiers } from "./validate.ts";
export { volumeCost } from "./volume.ts";

/** Cost in fractional cents of `quantity` units under `pricing`. */
export function cost(pricing: Pricing, quantity: number): number {
  if (!Number.isInteger(quantity) || quantity < 0) throw new RangeError(`bad quantity ${quantity}`);
  switch (pricing.scheme) {
    case "graduated":
      return graduatedCost(pricing.tiers, quantity);
    case "volume":
      return volumeCost(pricing.tiers, quantity);
    case "package":
      return packageCost(pricing.size, pricing.packagePrice, quantity);
  }
}

/** Validates the tiers of tiered schemes. */
export function validatePricing(pricing: Pricing): void {
  if (pricing.scheme !== "package") validateTiers(pricing.tiers);
}
