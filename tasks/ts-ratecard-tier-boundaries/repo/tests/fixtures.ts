import type { Tier } from "../src/tiers/mod.ts";

/** API calls: first 1,000 at 0.5¢, up to 10,000 at 0.4¢, then 0.25¢. */
export const apiTiers: Tier[] = [
  { upTo: 1000, unitPrice: 0.5 },
  { upTo: 10000, unitPrice: 0.4 },
  { upTo: null, unitPrice: 0.25 },
];

/** Storage: up to 100 GB at 10¢ with a $5 platform fee, then 8¢/GB with a $20 fee. */
export const storageTiers: Tier[] = [
  { upTo: 100, unitPrice: 10, flatFee: 500 },
  { upTo: null, unitPrice: 8, flatFee: 2000 },
];
