/**
 * Read model for the order list page: status and totals per order.
 */
import { orderTotal } from "../events/money.ts";
import type { StoredEvent } from "../events/types.ts";
import type { Projection } from "./projection.ts";

/** One row of the order list. */
export interface OrderSummaryRow {
  orderId: string;
  customer: string;
  status: "placed" | "paid" | "shipped" | "cancelled";
  total: number;
  paid: number;
  items: number;
}

/** Order list projection. */
export class OrderSummaryProjection implements Projection {
  readonly name = "order-summary";
  readonly rows = new Map<string, OrderSummaryRow>();

  apply({ event }: StoredEvent): void {
    if (event.type === "OrderPlaced") {
      this.rows.set(event.orderId, {
        orderId: event.orderId,
        customer: event.customer,
        status: "placed",
        total: orderTotal(event.lines),
        paid: 0,
        items: event.lines.reduce((n, l) => n + l.qty, 0),
      });
      return;
    }
    const row = this.rows.get(event.orderId);
    if (!row) return;
    if (event.type === "PaymentReceived") {
      row.paid += event.amount;
      if (row.paid >= row.total) row.status = "paid";
    } else if (event.type === "OrderShipped") row.status = "shipped";
    else if (event.type === "OrderCancelled") row.status = "cancelled";
  }

  reset(): void {
    this.rows.clear();
  }
}
