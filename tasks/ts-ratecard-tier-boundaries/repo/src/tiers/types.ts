/** One pricing tier. Prices are in cents and may be fractional (0.4 = 0.4¢ per unit). */
export interface Tier {
  /** Last unit covered, inclusive; null for the unbounded last tier. */
  upTo: number | null;
  unitPrice: number;
  /** Charged once when the tier applies (see each scheme for when that is). */
  flatFee?: number;
}

export type Pricing =
  | { scheme: "graduated"; tiers: Tier[] }
  | { scheme: "volume"; tiers: Tier[] }
  | { scheme: "package"; size: number; packagePrice: number };

/** Thrown for malformed tier lists. */
export class TierError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TierError";
  }
}
