import assert from "node:assert/strict";
import { Emitter } from "../src/emitter.ts";

type Events = { saved: [id: string]; tick: [] };

Deno.test("calls listeners with arguments", () => {
  const bus = new Emitter<Events>();
  const seen: string[] = [];
  bus.on("saved", (id) => seen.push(id));
  assert.equal(bus.emit("saved", "a"), 1);
  assert.deepEqual(seen, ["a"]);
});

Deno.test("higher priority runs first", () => {
  const bus = new Emitter<Events>();
  const order: string[] = [];
  bus.on("tick", () => order.push("low"), { priority: -1 });
  bus.on("tick", () => order.push("high"), { priority: 5 });
  bus.on("tick", () => order.push("default"));
  bus.emit("tick");
  assert.deepEqual(order, ["high", "default", "low"]);
});

Deno.test("once listener fires a single time", () => {
  const bus = new Emitter<Events>();
  let n = 0;
  bus.once("tick", () => n++);
  bus.emit("tick");
  bus.emit("tick");
  assert.equal(n, 1);
  assert.equal(bus.listenerCount("tick"), 0);
});

Deno.test("unsubscribe and off remove listeners", () => {
  const bus = new Emitter<Events>();
  const fn = () => {};
  const stop = bus.on("tick", () => {});
  bus.on("tick", fn);
  stop();
  assert.equal(bus.off("tick", fn), true);
  assert.equal(bus.emit("tick"), 0);
});

Deno.test("errors are collected after all listeners ran", () => {
  const bus = new Emitter<Events>();
  let ran = false;
  bus.on("tick", () => {
    throw new Error("boom");
  }, { priority: 1 });
  bus.on("tick", () => (ran = true));
  assert.throws(() => bus.emit("tick"), AggregateError);
  assert.equal(ran, true);
});
