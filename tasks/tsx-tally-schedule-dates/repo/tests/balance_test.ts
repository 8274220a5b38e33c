import assert from "node:assert/strict";
import { Balance, money } from "../src/mod.ts";

Deno.test("Balance keeps one amount per currency and drops zeros", () => {
  const b = Balance.of(money(100, "USD"), money(50, "EUR"), money(-100, "USD"));
  assert.deepEqual(b.currencies(), ["EUR"]);
  assert.equal(b.get("USD"), 0);
  assert.equal(b.toString(), "0.50 EUR");
});

Deno.test("Balance plus, negated and equals", () => {
  const a = Balance.of(money(100, "USD"));
  const b = Balance.of(money(25, "USD"), money(300, "EUR"));
  const sum = a.plus(b);
  assert.equal(sum.get("USD"), 125);
  assert.ok(sum.plus(sum.negated()).isZero());
  assert.ok(sum.equals(Balance.of(money(300, "EUR"), money(125, "USD"))));
  assert.equal(new Balance().toString(), "0");
});
