import assert from "node:assert/strict";
import { Emitter } from "../src/emitter.ts";
import { ListenerList } from "../src/listeners.ts";

type Events = { tick: []; msg: [text: string] };

Deno.test("listener after a once listener is not skipped", () => {
  const bus = new Emitter<Events>();
  const calls: string[] = [];
  bus.once("tick", () => calls.push("once"));
  bus.on("tick", () => calls.push("always"));
  assert.equal(bus.emit("tick"), 2);
  bus.emit("tick");
  assert.deepEqual(calls, ["once", "always", "always"]);
});

Deno.test("several once listeners all fire", () => {
  const bus = new Emitter<Events>();
  const calls: number[] = [];
  for (let i = 0; i < 4; i++) bus.once("tick", () => calls.push(i));
  bus.emit("tick");
  assert.deepEqual(calls, [0, 1, 2, 3]);
  assert.equal(bus.listenerCount("tick"), 0);
});

Deno.test("same priority keeps registration order", () => {
  const bus = new Emitter<Events>();
  const calls: string[] = [];
  bus.on("msg", (t) => calls.push("a" + t));
  bus.on("msg", (t) => calls.push("b" + t));
  bus.on("msg", (t) => calls.push("c" + t));
  bus.emit("msg", "!");
  assert.deepEqual(calls, ["a!", "b!", "c!"]);
});

Deno.test("listener list orders by priority then registration", () => {
  const list = new ListenerList<string>();
  list.add("x", { priority: 1 });
  list.add("y");
  list.add("z", { priority: 1 });
  list.add("w");
  assert.deepEqual(list.entries.map((e) => e.fn), ["x", "z", "y", "w"]);
});

Deno.test("listener removed during emit still runs this time", () => {
  const bus = new Emitter<Events>();
  const calls: string[] = [];
  const second = () => calls.push("second");
  bus.on("tick", () => {
    calls.push("first");
    bus.off("tick", second);
  }, { priority: 1 });
  bus.on("tick", second);
  bus.emit("tick");
  bus.emit("tick");
  assert.deepEqual(calls, ["first", "second", "first"]);
});

Deno.test("off removes a once listener before it fires", () => {
  const bus = new Emitter<Events>();
  const fn = () => {
    throw new Error("should not run");
  };
  bus.once("tick", fn);
  assert.equal(bus.off("tick", fn), true);
  assert.equal(bus.emit("tick"), 0);
});
