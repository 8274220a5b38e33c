/**
 * The order aggregate: current state is rebuilt from its events, and commands check the rules
 * before producing new events.
 */
import { orderTotal } from "../events/money.ts";
import type { OrderEvent, OrderLine } from "../events/types.ts";
import type { EventStore } from "../store/event_store.ts";

/** Lifecycle of an order. */
export type OrderStatus = "new" | "placed" | "paid" | "shipped" | "cancelled";

/** State rebuilt from events. */
export interface OrderState {
  id: string;
  status: OrderStatus;
  total: number;
  paid: number;
  version: number;
}

/** A command that is not allowed in the order's current state. */
export class OrderRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OrderRuleError";
  }
}

/** Folds events into state. */
export function rehydrate(id: string, events: OrderEvent[]): OrderState {
  const state: OrderState = { id, status: "new", total: 0, paid: 0, version: 0 };
  for (const event of events) {
    state.version++;
    switch (event.type) {
      case "OrderPlaced":
        state.status = "placed";
        state.total = orderTotal(event.lines);
        break;
      case "PaymentReceived":
        state.paid += event.amount;
        if (state.paid >= state.total) state.status = "paid";
        break;
      case "OrderShipped":
        state.status = "shipped";
        break;
      case "OrderCancelled":
        state.status = "cancelled";
        break;
    }
  }
  return state;
}

/** Command handlers writing to an {@linkcode EventStore}. */
export class OrderService {
  constructor(readonly store: EventStore, readonly now: () => string) {}

  load(id: string): OrderState {
    return rehydrate(id, this.store.readStream(id).map((e) => e.event));
  }

  place(id: string, customer: string, lines: OrderLine[]): void {
    if (lines.length === 0 || lines.some((l) => l.qty <= 0)) throw new OrderRuleError("an order needs lines with positive quantities");
    this.store.append(id, 0, [{ type: "OrderPlaced", orderId: id, customer, lines, at: this.now() }]);
  }

  pay(id: string, amount: number): void {
    const order = this.load(id);
    if (order.status !== "placed") throw new OrderRuleError(`cannot pay a ${order.status} order`);
    this.store.append(id, order.version, [{ type: "PaymentReceived", orderId: id, amount, at: this.now() }]);
  }

  ship(id: string, carrier: string): void {
    const order = this.load(id);
    if (order.status !== "paid") throw new OrderRuleError(`cannot ship a ${order.status} order`);
    this.store.append(id, order.version, [{ type: "OrderShipped", orderId: id, carrier, at: this.now() }]);
  }

  cancel(id: string, reason: string): void {
    const order = this.load(id);
    if (order.status === "shipped" || order.status === "cancelled" || order.status === "new") {
      throw new OrderRuleError(`cannot cancel a ${order.status} order`);
    }
    this.store.append(id, order.version, [{ type: "OrderCancelled", orderId: id, reason, at: this.now() }]);
  }
}
