/**
 * Read model for the finance dashboard: payments received per UTC day.
 */
import type { StoredEvent } from "../events/types.ts";
import type { Projection } from "./projection.ts";

/** Payments per day, `YYYY-MM-DD` (UTC) to cents. */
export class DailyRevenueProjection implements Projection {
  readonly name = "daily-revenue";
  readonly byDay = new Map<string, number>();

  apply({ event }: StoredEvent): void {
    if (event.type !== "PaymentReceived") return;
    const day = new Date(event.at).toISOString().slice(0, 10);
    this.byDay.set(day, (this.byDay.get(day) ?? 0) + event.amount);
  }

  reset(): void {
    this.byDay.clear();
  }
}
