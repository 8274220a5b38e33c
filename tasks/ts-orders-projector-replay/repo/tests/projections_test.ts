import assert from "node:assert/strict";
import { CustomerTotalsProjection, DailyRevenueProjection, OrderSummaryProjection, Projector } from "../src/mod.ts";
import { serviceAt } from "./helpers.ts";

function scenario() {
  const { store, orders } = serviceAt("2024-03-01T10:00:00Z", "2024-03-01T11:00:00Z", "2024-03-02T09:00:00Z");
  const summary = new OrderSummaryProjection();
  const customers = new CustomerTotalsProjection();
  const revenue = new DailyRevenueProjection();
  const projector = new Projector(store, [summary, customers, revenue]);
  return { store, orders, summary, customers, revenue, projector };
}

Deno.test("projections see every event once", () => {
  const { orders, summary, customers, projector } = scenario();
  orders.place("o1", "ann", [{ sku: "mug", qty: 2, unitPrice: 1200 }]);
  orders.pay("o1", 2400);
  projector.catchUp();
  assert.equal(summary.rows.get("o1")?.status, "paid");
  assert.deepEqual(customers.totals.get("ann"), { customer: "ann", orders: 1, openOrders: 1, ordered: 2400 });
});

Deno.test("catchUp only applies new events", () => {
  const { orders, customers, projector } = scenario();
  orders.place("o1", "ann", [{ sku: "mug", qty: 2, unitPrice: 1200 }]);
  projector.catchUp();
  orders.place("o2", "ann", [{ sku: "tea", qty: 1, unitPrice: 800 }]);
  projector.catchUp();
  assert.deepEqual(customers.totals.get("ann"), { customer: "ann", orders: 2, openOrders: 2, ordered: 3200 });
  assert.equal(projector.catchUp(), 0);
});

Deno.test("cancelling removes the whole order amount", () => {
  const { orders, customers, projector } = scenario();
  orders.place("o1", "ann", [{ sku: "mug", qty: 3, unitPrice: 1000 }, { sku: "tea", qty: 1, unitPrice: 500 }]);
  orders.place("o2", "ann", [{ sku: "pen", qty: 1, unitPrice: 200 }]);
  orders.cancel("o1", "out of stock");
  projector.catchUp();
  assert.deepEqual(customers.totals.get("ann"), { customer: "ann", orders: 2, openOrders: 1, ordered: 200 });
});

Deno.test("daily revenue groups payments by UTC day", () => {
  const { orders, revenue, projector } = scenario();
  orders.place("o1", "ann", [{ sku: "mug", qty: 1, unitPrice: 1000 }]);
  orders.pay("o1", 1000);
  orders.place("o2", "bob", [{ sku: "mug", qty: 1, unitPrice: 1000 }]);
  orders.pay("o2", 1000);
  projector.catchUp();
  assert.deepEqual([...revenue.byDay], [["2024-03-01", 1000], ["2024-03-02", 1000]]);
});
