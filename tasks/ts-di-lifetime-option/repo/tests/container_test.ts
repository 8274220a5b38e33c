import assert from "node:assert/strict";
import { CircularDependencyError, Container, MissingProviderError, token } from "../src/mod.ts";

const A = token<{ n: number }>("A");
const B = token<string>("B");

Deno.test("transient registrations build a new instance each time", () => {
  let built = 0;
  const c = new Container().register(A, () => ({ n: ++built }));
  assert.notEqual(c.resolve(A), c.resolve(A));
  assert.equal(built, 2);
});

Deno.test("singletons are shared across scopes", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { singleton: true });
  assert.equal(c.createScope().resolve(A), c.resolve(A));
});

Deno.test("per-scope instances are shared within a scope only", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { perScope: true });
  const s1 = c.createScope(), s2 = c.createScope();
  assert.equal(s1.resolve(A), s1.resolve(A));
  assert.notEqual(s1.resolve(A), s2.resolve(A));
  assert.throws(() => c.resolve(A), /resolve it from a scope/);
});

Deno.test("singleton wins when both flags are set", () => {
  const c = new Container().register(A, () => ({ n: 1 }), { singleton: true, perScope: true });
  assert.equal(c.resolve(A), c.createScope().resolve(A));
});

Deno.test("missing providers and cycles are reported with the path", () => {
  const c = new Container().register(A, (c) => ({ n: c.resolve(B).length }));
  assert.throws(() => c.resolve(A), (e) => e instanceof MissingProviderError && e.message === "no provider for B (needed by A)");
  c.register(B, (c) => String(c.resolve(A).n));
  assert.throws(() => c.resolve(A), (e) => e instanceof CircularDependencyError && e.message === "circular dependency: A -> B -> A");
});
