/** Raw usage events from the metering pipeline, summed per metric. */
export interface UsageEvent {
  customer: string;
  metric: string;
  quantity: number;
}

/** Total quantity per metric for one customer, in first-seen order. */
export function totalsFor(customer: string, events: readonly UsageEvent[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const e of events) {
    if (e.customer !== customer) continue;
    totals.set(e.metric, (totals.get(e.metric) ?? 0) + e.quantity);
  }
  return totals;
}
