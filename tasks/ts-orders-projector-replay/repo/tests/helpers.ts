import { EventStore, OrderService } from "../src/mod.ts";

/** A service whose clock returns the given timestamps in turn (the last one repeats). */
export function serviceAt(...times: string[]): { store: EventStore; orders: OrderService } {
  const store = new EventStore();
  let i = 0;
  const orders = new OrderService(store, () => times[Math.min(i++, times.length - 1)]);
  return { store, orders };
}
