import assert from "node:assert/strict";
import { OrderRuleError } from "../src/mod.ts";
import { serviceAt } from "./helpers.ts";

Deno.test("an order goes from placed to paid to shipped", () => {
  const { orders } = serviceAt("2024-03-01T10:00:00Z");
  orders.place("o1", "ann", [{ sku: "mug", qty: 2, unitPrice: 1200 }]);
  orders.pay("o1", 2400);
  orders.ship("o1", "dhl");
  assert.deepEqual(orders.load("o1"), { id: "o1", status: "shipped", total: 2400, paid: 2400, version: 3 });
});

Deno.test("rules are enforced", () => {
  const { orders } = serviceAt("2024-03-01T10:00:00Z");
  orders.place("o1", "ann", [{ sku: "mug", qty: 1, unitPrice: 500 }]);
  assert.throws(() => orders.ship("o1", "dhl"), OrderRuleError);
  orders.cancel("o1", "changed mind");
  assert.throws(() => orders.pay("o1", 500), /cannot pay a cancelled order/);
});
