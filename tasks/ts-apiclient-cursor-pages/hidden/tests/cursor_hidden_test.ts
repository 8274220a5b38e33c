import assert from "node:assert/strict";
import { ApiClient, type AuditEvent, collect, FakeServer, InMemoryTransport, paginate, type User } from "../src/mod.ts";

function setup(options = {}) {
  const server = new FakeServer(options);
  const client = new ApiClient(new InMemoryTransport(server), { token: "test-token", sleep: () => Promise.resolve() });
  return { server, client };
}

Deno.test("cursor style collects every event in order", async () => {
  const { client } = setup({ events: 12 });
  const events = await collect<AuditEvent>(client, "/events", { style: "cursor", query: { limit: "5" } });
  assert.deepEqual(events.map((e) => e.id), Array.from({ length: 12 }, (_, i) => `evt_${String(i + 1).padStart(4, "0")}`));
});

Deno.test("cursor style sends the cursor and keeps the query", async () => {
  const { server, client } = setup({ events: 12 });
  await collect(client, "/events", { style: "cursor", query: { limit: "5" } });
  assert.deepEqual(server.log.map((r) => [r.query.limit, r.query.cursor ?? null]), [
    ["5", null],
    ["5", btoa("evt_0005")],
    ["5", btoa("evt_0010")],
  ]);
});

Deno.test("cursor style keeps filters on later pages", async () => {
  const { client } = setup({ events: 12 });
  const events = await collect<AuditEvent>(client, "/events", { style: "cursor", query: { limit: "2", action: "logout" } });
  assert.equal(events.length, 6);
  assert.ok(events.every((e) => e.action === "logout"));
});

Deno.test("cursor style stops on a null cursor after one page", async () => {
  const { server, client } = setup({ events: 3 });
  assert.equal((await collect(client, "/events", { style: "cursor", query: { limit: "10" } })).length, 3);
  assert.equal(server.log.length, 1);
});

Deno.test("cursor style honours maxPages", async () => {
  const { server, client } = setup({ events: 12 });
  assert.equal((await collect(client, "/events", { style: "cursor", query: { limit: "5" }, maxPages: 2 })).length, 10);
  assert.equal(server.log.length, 2);
});

Deno.test("cursor style retries throttled pages", async () => {
  const { server, client } = setup({ events: 12 });
  server.throttleNext(1);
  assert.equal((await collect(client, "/events", { style: "cursor", query: { limit: "6" } })).length, 12);
});

Deno.test("paginate yields cursor pages lazily", async () => {
  const { server, client } = setup({ events: 12 });
  const iterator = paginate<AuditEvent>(client, "/events", { style: "cursor", query: { limit: "4" } });
  const first = await iterator.next();
  assert.equal(first.value?.id, "evt_0001");
  assert.equal(server.log.length, 1);
});

Deno.test("cursor field names are configurable", async () => {
  const server = new FakeServer({ events: 4 });
  const renaming = {
    send: async (req: Parameters<InMemoryTransport["send"]>[0]) => {
      const query = { ...req.query };
      if (query.after !== undefined) {
        query.cursor = query.after;
        delete query.after;
      }
      const res = await new InMemoryTransport(server).send({ ...req, query });
      const body = res.body as { data: unknown[]; next_cursor: string | null };
      return { ...res, body: { items: body.data, next: body.next_cursor } };
    },
  };
  const client = new ApiClient(renaming, { token: "test-token" });
  const events = await collect<AuditEvent>(client, "/events", {
    style: "cursor",
    query: { limit: "3" },
    cursorParam: "after",
    itemsField: "items",
    nextField: "next",
  });
  assert.equal(events.length, 4);
});

Deno.test("link style is still the default", async () => {
  const { client } = setup({ users: 7 });
  assert.equal((await collect<User>(client, "/users", { query: { per_page: "3" } })).length, 7);
});
