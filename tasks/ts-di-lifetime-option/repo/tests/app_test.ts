import assert from "node:assert/strict";
import { buildContainer, LOGGER, REQUEST, USER_SERVICE, USERS } from "../src/mod.ts";

Deno.test("each request scope gets its own service and context", () => {
  const root = buildContainer();
  const r1 = root.createScope(), r2 = root.createScope();
  assert.notEqual(r1.resolve(USER_SERVICE), r2.resolve(USER_SERVICE));
  assert.equal(r1.resolve(USER_SERVICE).context, r1.resolve(REQUEST));
});

Deno.test("repository and logger are shared app-wide", () => {
  const root = buildContainer();
  const r1 = root.createScope(), r2 = root.createScope();
  r1.resolve(USER_SERVICE).signUp("a@example.com");
  assert.throws(() => r2.resolve(USER_SERVICE).signUp("a@example.com"), /already registered/);
  assert.equal(root.resolve(USERS), r2.resolve(USERS));
  assert.equal(root.resolve(LOGGER).lines.length, 1);
});
