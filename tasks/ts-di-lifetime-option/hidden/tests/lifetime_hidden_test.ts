import assert from "node:assert/strict";
import { buildContainer, Container, LIFETIMES, lifetimeFromOptions, REQUEST, token, USERS } from "../src/mod.ts";

// Loaded lazily so that the other tests still run before the module exists.
const lifetimeModule = () => import("../src/di/lifetime.ts");

const A = token<{ n: number }>("A");

Deno.test("lifetime option: singleton", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { lifetime: "singleton" });
  assert.equal(c.createScope().resolve(A), c.resolve(A));
});

Deno.test("lifetime option: scoped", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { lifetime: "scoped" });
  const s1 = c.createScope(), s2 = c.createScope();
  assert.equal(s1.resolve(A), s1.resolve(A));
  assert.notEqual(s1.resolve(A), s2.resolve(A));
  assert.throws(() => c.resolve(A), /resolve it from a scope/);
});

Deno.test("lifetime option: transient", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { lifetime: "transient" });
  assert.notEqual(c.resolve(A), c.resolve(A));
});

Deno.test("lifetimeOf reports registrations", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { lifetime: "scoped" });
  assert.equal(c.lifetimeOf(A), "scoped");
  assert.equal(c.lifetimeOf(token("other")), undefined);
});

Deno.test("deprecated flags map to lifetimes", () => {
  assert.equal(lifetimeFromOptions({ singleton: true }), "singleton");
  assert.equal(lifetimeFromOptions({ perScope: true }), "scoped");
  assert.equal(lifetimeFromOptions({ singleton: true, perScope: true }), "singleton");
  assert.equal(lifetimeFromOptions({}), "transient");
});

Deno.test("mixing lifetime with deprecated flags throws", () => {
  assert.throws(() => new Container().register(A, () => ({ n: 1 }), { lifetime: "scoped", singleton: true }), TypeError);
});

Deno.test("unknown lifetimes throw", () => {
  // deno-lint-ignore no-explicit-any
  assert.throws(() => new Container().register(A, () => ({ n: 1 }), { lifetime: "forever" as any }), /unknown lifetime "forever"/);
});

Deno.test("LIFETIMES lists the three lifetimes", () => {
  assert.deepEqual([...LIFETIMES].sort(), ["scoped", "singleton", "transient"]);
});

Deno.test("lifetime module exports the helpers", async () => {
  const module = await lifetimeModule();
  assert.equal(module.lifetimeFromOptions, lifetimeFromOptions);
  assert.equal(module.LIFETIMES, LIFETIMES);
});

Deno.test("values are singletons", () => {
  const c = new Container().value(A, { n: 5 });
  assert.equal(c.lifetimeOf(A), "singleton");
});

Deno.test("the app wiring uses lifetimes", () => {
  const root = buildContainer();
  assert.equal(root.lifetimeOf(REQUEST), "scoped");
  assert.equal(root.lifetimeOf(USERS), "singleton");
});
