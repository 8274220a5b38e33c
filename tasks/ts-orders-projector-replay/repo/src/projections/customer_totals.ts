/**
 * Read model for the customer page: how much each customer has ordered and how many orders are
 * open. Cancelled orders no longer count towards the ordered amount.
 */
import type { OrderLine, StoredEvent } from "../events/types.ts";
import type { Projection } from "./projection.ts";

/** Totals of one customer. */
export interface CustomerTotals {
  customer: string;
  orders: number;
  openOrders: number;
  ordered: number;
}

/** Customer totals projection. */
export class CustomerTotalsProjection implements Projection {
  readonly name = "customer-totals";
  readonly totals = new Map<string, CustomerTotals>();
  /** Order id to its customer and lines, to resolve later events. */
  #orders = new Map<string, { customer: string; lines: OrderLine[] }>();

  apply({ event }: StoredEvent): void {
    if (event.type === "OrderPlaced") {
      this.#orders.set(event.orderId, { customer: event.customer, lines: event.lines });
      const t = this.#totals(event.customer);
      t.orders++;
      t.openOrders++;
      t.ordered += event.lines.reduce((sum, l) => sum + l.qty * l.unitPrice, 0);
      return;
    }
    const order = this.#orders.get(event.orderId);
    if (!order) return;
    const t = this.#totals(order.customer);
    if (event.type === "OrderShipped") t.openOrders--;
    if (event.type === "OrderCancelled") {
      t.openOrders--;
      t.ordered -= order.lines.reduce((sum, l) => sum + l.unitPrice, 0);
    }
  }

  reset(): void {
    this.totals.clear();
    this.#orders.clear();
  }

  #totals(customer: string): CustomerTotals {
    let t = this.totals.get(customer);
    if (!t) {
      t = { customer, orders: 0, openOrders: 0, ordered: 0 };
      this.totals.set(customer, t);
    }
    return t;
  }
}
