import assert from "node:assert/strict";
import { CustomerTotalsProjection, DailyRevenueProjection, EventStore, OrderSummaryProjection, Projector } from "../src/mod.ts";
import { serviceAt } from "./helpers.ts";

function setup() {
  const { store, orders } = serviceAt("2024-03-01T10:00:00Z");
  const summary = new OrderSummaryProjection();
  const customers = new CustomerTotalsProjection();
  const revenue = new DailyRevenueProjection();
  const projector = new Projector(store, [summary, customers, revenue]);
  return { store, orders, summary, customers, revenue, projector };
}

Deno.test("readAll after the head is empty", () => {
  const { store, orders } = setup();
  orders.place("o1", "ann", [{ sku: "mug", qty: 1, unitPrice: 100 }]);
  assert.equal(store.readAll(store.head).length, 0);
});

Deno.test("readAll after position 1 skips the first event", () => {
  const { store, orders } = setup();
  orders.place("o1", "ann", [{ sku: "mug", qty: 1, unitPrice: 100 }]);
  orders.place("o2", "bob", [{ sku: "mug", qty: 1, unitPrice: 100 }]);
  assert.deepEqual(store.readAll(1).map((e) => e.position), [2]);
});

Deno.test("incremental catch-up does not double-apply payments", () => {
  const { orders, summary, revenue, projector } = setup();
  orders.place("o1", "ann", [{ sku: "mug", qty: 2, unitPrice: 1000 }]);
  orders.pay("o1", 500);
  projector.catchUp();
  orders.pay("o1", 1500);
  projector.catchUp();
  assert.equal(summary.rows.get("o1")?.paid, 2000);
  assert.equal(revenue.byDay.get("2024-03-01"), 2000);
});

Deno.test("catchUp reports only the newly applied events", () => {
  const { orders, projector } = setup();
  orders.place("o1", "ann", [{ sku: "mug", qty: 1, unitPrice: 100 }]);
  assert.equal(projector.catchUp(), 3);
  orders.pay("o1", 100);
  assert.equal(projector.catchUp(), 3);
  assert.equal(projector.catchUp(), 0);
  assert.equal(projector.checkpoint("order-summary"), 2);
});

Deno.test("rebuild reproduces the incremental result", () => {
  const { orders, customers, projector } = setup();
  orders.place("o1", "ann", [{ sku: "mug", qty: 2, unitPrice: 1200 }]);
  projector.catchUp();
  orders.place("o2", "ann", [{ sku: "tea", qty: 4, unitPrice: 250 }]);
  projector.catchUp();
  orders.cancel("o1", "duplicate");
  projector.catchUp();
  const incremental = structuredClone(customers.totals.get("ann"));
  projector.rebuild("customer-totals");
  assert.deepEqual(customers.totals.get("ann"), incremental);
  assert.deepEqual(incremental, { customer: "ann", orders: 2, openOrders: 1, ordered: 1000 });
});

Deno.test("cancelling a multi-quantity order zeroes the customer's total", () => {
  const { orders, customers, projector } = setup();
  orders.place("o1", "bob", [{ sku: "chair", qty: 4, unitPrice: 4500 }]);
  orders.cancel("o1", "too expensive");
  projector.catchUp();
  assert.equal(customers.totals.get("bob")?.ordered, 0);
});

Deno.test("projections over an empty store stay empty", () => {
  const projector = new Projector(new EventStore(), [new OrderSummaryProjection()]);
  assert.equal(projector.catchUp(), 0);
  assert.equal(projector.checkpoint("order-summary"), 0);
});
