import assert from "node:assert/strict";
import { ApiClient, ApiError, collect, FakeServer, InMemoryTransport, type User } from "../src/mod.ts";

function setup(options = {}) {
  const server = new FakeServer(options);
  const waits: number[] = [];
  const client = new ApiClient(new InMemoryTransport(server), {
    token: "test-token",
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
  });
  return { server, client, waits };
}

Deno.test("collect follows Link headers across pages", async () => {
  const { server, client } = setup({ users: 25 });
  const users = await collect<User>(client, "/users", { query: { per_page: "10" } });
  assert.deepEqual(users.map((u) => u.id), Array.from({ length: 25 }, (_, i) => i + 1));
  assert.deepEqual(server.log.map((r) => r.query.page ?? "1"), ["1", "2", "3"]);
});

Deno.test("collect keeps filters on later pages", async () => {
  const { client } = setup({ users: 25 });
  const users = await collect<User>(client, "/users", { query: { per_page: "4", team: "web" } });
  assert.equal(users.length, 8);
  assert.ok(users.every((u) => u.team === "web"));
});

Deno.test("maxPages stops early", async () => {
  const { client } = setup({ users: 25 });
  assert.equal((await collect(client, "/users", { query: { per_page: "10" }, maxPages: 2 })).length, 20);
});

Deno.test("429 responses are retried after retry-after", async () => {
  const { server, client, waits } = setup();
  server.throttleNext(2);
  const users = await client.get<User[]>("/users", { per_page: "3" });
  assert.equal(users.length, 3);
  assert.deepEqual(waits, [1000, 1000]);
});

Deno.test("errors surface as ApiError", async () => {
  const { client } = setup();
  await assert.rejects(client.get("/nope"), (e) => e instanceof ApiError && e.status === 404);
  const bad = new ApiClient(new InMemoryTransport(new FakeServer()), { token: "wrong" });
  await assert.rejects(bad.get("/users"), (e) => e instanceof ApiError && e.status === 401);
});

Deno.test("the events endpoint returns a cursor page", async () => {
  const { client } = setup({ events: 12 });
  const page = await client.get<{ data: unknown[]; next_cursor: string | null }>("/events", { limit: "5" });
  assert.equal(page.data.length, 5);
  assert.equal(typeof page.next_cursor, "string");
});
