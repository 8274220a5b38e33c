/** Building a customer's invoice from usage and a rate card. */
import { cost } from "../tiers/mod.ts";
import type { RateCard } from "./ratecard.ts";
import { totalsFor, type UsageEvent } from "./usage.ts";

export interface InvoiceLine {
  metric: string;
  used: number;
  billable: number;
  /** Whole cents, rounded half-up. */
  amount: number;
}

export interface Invoice {
  customer: string;
  lines: InvoiceLine[];
  total: number;
  /** Metrics with usage but no rate on the card (billed nothing, reported to finance). */
  unrated: string[];
}

export function buildInvoice(customer: string, card: RateCard, events: readonly UsageEvent[]): Invoice {
  const lines: InvoiceLine[] = [];
  const unrated: string[] = [];
  for (const [metric, used] of totalsFor(customer, events)) {
    const rate = card.rateFor(metric);
    if (!rate) {
      unrated.push(metric);
      continue;
    }
    const billable = Math.max(0, used - (rate.included ?? 0));
    lines.push({ metric, used, billable, amount: Math.round(cost(rate.pricing, billable)) });
  }
  return { customer, lines, total: lines.reduce((s, l) => s + l.amount, 0), unrated };
}
