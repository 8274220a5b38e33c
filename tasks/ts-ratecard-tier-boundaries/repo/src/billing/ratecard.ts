/** A customer's rate card: pricing per metric, plus free monthly allowances. */
import { type Pricing, validatePricing } from "../tiers/mod.ts";

export interface MetricRate {
  metric: string;
  pricing: Pricing;
  /** Units included for free each period, deducted before pricing. */
  included?: number;
}

export class RateCard {
  readonly #rates = new Map<string, MetricRate>();

  constructor(readonly name: string, rates: MetricRate[]) {
    for (const rate of rates) {
      validatePricing(rate.pricing);
      this.#rates.set(rate.metric, rate);
    }
  }

  rateFor(metric: string): MetricRate | undefined {
    return this.#rates.get(metric);
  }

  metrics(): string[] {
    return [...this.#rates.keys()];
  }
}
