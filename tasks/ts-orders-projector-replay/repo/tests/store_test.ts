import assert from "node:assert/strict";
import { ConcurrencyError, EventStore, type OrderEvent } from "../src/mod.ts";

const placed = (id: string): OrderEvent => ({ type: "OrderPlaced", orderId: id, customer: "c", lines: [], at: "2024-01-01T00:00:00Z" });

Deno.test("append assigns positions and versions", () => {
  const store = new EventStore();
  store.append("o1", 0, [placed("o1")]);
  const [stored] = store.append("o2", 0, [placed("o2")]);
  assert.equal(stored.position, 2);
  assert.equal(stored.version, 1);
  assert.equal(store.head, 2);
});

Deno.test("append rejects a stale expected version", () => {
  const store = new EventStore();
  store.append("o1", 0, [placed("o1")]);
  assert.throws(() => store.append("o1", 0, [placed("o1")]), ConcurrencyError);
  assert.equal(store.version("o1"), 1);
});

Deno.test("readAll returns the events after a position", () => {
  const store = new EventStore();
  for (const id of ["a", "b", "c"]) store.append(id, 0, [placed(id)]);
  assert.deepEqual(store.readAll().map((e) => e.position), [1, 2, 3]);
  assert.deepEqual(store.readAll(2).map((e) => e.streamId), ["c"]);
});
