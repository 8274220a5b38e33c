import assert from "node:assert/strict";
import { Router } from "../src/router.ts";

function app(): Router<string> {
  return new Router<string>()
    .add("GET", "/users", "listUsers")
    .add("GET", "/users/:id", "showUser")
    .add("GET", "/users/me", "showMe")
    .add("POST", "/users", "createUser")
    .add("GET", "/static/*path", "static");
}

Deno.test("matches params and prefers literal segments", () => {
  const r = app();
  assert.deepEqual(r.match("GET", "/users/42")?.params, { id: "42" });
  assert.equal(r.match("GET", "/users/me")?.handler, "showMe");
});

Deno.test("matches wildcard rest segments", () => {
  assert.deepEqual(app().match("GET", "/static/css/site.css")?.params, { path: "css/site.css" });
});

Deno.test("passes the parsed query along", () => {
  const m = app().match("get", "/users?page=2&sort=name");
  assert.equal(m?.handler, "listUsers");
  assert.deepEqual(m?.query, { page: "2", sort: "name" });
});

Deno.test("reports allowed methods", () => {
  assert.deepEqual(app().allowedMethods("/users"), ["GET", "POST"]);
  assert.equal(app().match("DELETE", "/users"), null);
});
