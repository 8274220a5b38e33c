import assert from "node:assert/strict";
import { evaluate, FlagDefinitionError, FlagStore, pickVariant } from "../src/mod.ts";
import { booleanRollout, checkoutFlag } from "./fixtures.ts";

const store = new FlagStore({
  flags: [checkoutFlag, booleanRollout("everyone", 100)],
  segments: [{ key: "beta-testers", included: ["u-7"], conditions: [{ attribute: "plan", op: "eq", value: "beta" }] }],
});

Deno.test("rules match in order", () => {
  assert.deepEqual(store.evaluate("new-checkout", { key: "u-1", attributes: { email: "staff+a@x.io" } })?.reason, {
    kind: "rule",
    ruleId: "staff",
  });
  assert.equal(store.evaluate("new-checkout", { key: "u-7" })?.value, "v2");
  assert.equal(store.evaluate("new-checkout", { key: "u-2", attributes: { plan: "beta" } })?.value, "v2");
  assert.equal(store.evaluate("new-checkout", { key: "u-3" })?.reason.kind, "fallthrough");
});

Deno.test("disabled flags serve the off variant", () => {
  const evaluation = evaluate({ ...checkoutFlag, enabled: false }, { key: "u-7" });
  assert.deepEqual(evaluation, { variant: "legacy", value: "v1", reason: { kind: "off" } });
});

Deno.test("a 100% rollout includes everyone", () => {
  for (let i = 0; i < 200; i++) assert.equal(store.isEnabled("everyone", { key: `user-${i}` }), true);
});

Deno.test("unknown flags use the fallback", () => {
  assert.equal(store.isEnabled("missing", { key: "u" }, true), true);
});

Deno.test("pickVariant is stable per user", () => {
  const rollout = [{ variant: "a", weight: 50 }, { variant: "b", weight: 50 }];
  assert.equal(pickVariant("new-nav", "carol", rollout), "a");
  assert.equal(pickVariant("new-nav", "carol", rollout), pickVariant("new-nav", "carol", rollout));
});

Deno.test("definitions with unknown variants are rejected", () => {
  assert.throws(
    () => new FlagStore({ flags: [{ ...checkoutFlag, offVariant: "nope" }] }),
    FlagDefinitionError,
  );
});
