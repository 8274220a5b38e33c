/**
 * ordersource: an event-sourced order service with projections.
 */
export type { OrderEvent, OrderLine, StoredEvent } from "./events/types.ts";
export { orderTotal } from "./events/money.ts";
export { EventStore } from "./store/event_store.ts";
export { ConcurrencyError } from "./store/errors.ts";
export { OrderRuleError, OrderService, rehydrate } from "./domain/order.ts";
export type { OrderState, OrderStatus } from "./domain/order.ts";
export type { Projection } from "./projections/projection.ts";
export { Projector } from "./projections/projector.ts";
export { OrderSummaryProjection } from "./projections/order_summary.ts";
export type { OrderSummaryRow } from "./projections/order_summary.ts";
export { CustomerTotalsProjection } from "./projections/customer_totals.ts";
export type { CustomerTotals } from "./projections/customer_totals.ts";
export { DailyRevenueProjection } from "./projections/daily_revenue.ts";
