/**
 * Domain events of the order service. Events are facts: they are never changed once stored.
 * Amounts are integer cents.
 */

/** One order line. */
export interface OrderLine {
  sku: string;
  qty: number;
  unitPrice: number;
}

/** Every event type, as stored. */
export type OrderEvent =
  | { type: "OrderPlaced"; orderId: string; customer: string; lines: OrderLine[]; at: string }
  | { type: "PaymentReceived"; orderId: string; amount: number; at: string }
  | { type: "OrderShipped"; orderId: string; carrier: string; at: string }
  | { type: "OrderCancelled"; orderId: string; reason: string; at: string };

/** An event with its position in the store. */
export interface StoredEvent {
  /** Global position, 1-based and gap-free. */
  position: number;
  /** Stream id (the order id). */
  streamId: string;
  /** Version within the stream, 1-based. */
  version: number;
  event: OrderEvent;
}
