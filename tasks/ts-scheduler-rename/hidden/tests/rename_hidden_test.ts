import assert from "node:assert/strict";
import * as mod from "../src/mod.ts";
import * as heapModule from "../src/heap.ts";
import * as schedulerModule from "../src/scheduler.ts";

Deno.test("heap has pop and peek", () => {
  const heap = new heapModule.BinaryHeap<number>((a, b) => b - a);
  heap.push(3, 7, 5);
  assert.equal(heap.peek(), 7);
  assert.equal(heap.pop(), 7);
  assert.equal(heap.pop(), 5);
  assert.equal(heap.size, 1);
  assert.equal(new heapModule.BinaryHeap<number>().pop(), undefined);
});

Deno.test("deprecated heap aliases still work", () => {
  const heap = new heapModule.BinaryHeap<string>();
  heap.push("b", "a", "c");
  assert.equal(heap.peekMin(), "a");
  assert.equal(heap.popMin(), "a");
  assert.equal(heap.pop(), "b");
});

Deno.test("TaskScheduler is exported and TaskSchedular is an alias", () => {
  assert.equal(typeof schedulerModule.TaskScheduler, "function");
  assert.equal(schedulerModule.TaskSchedular, schedulerModule.TaskScheduler);
  assert.equal(mod.TaskScheduler, schedulerModule.TaskScheduler);
  assert.equal(mod.TaskSchedular, schedulerModule.TaskScheduler);
});

Deno.test("renamed scheduler behaves the same", () => {
  const s = new schedulerModule.TaskScheduler();
  s.schedule("x", () => {}).schedule("y", () => {}, 3);
  assert.equal(s.runNext(), "y");
  assert.equal(s.peekNext(), "x");
  assert.ok(new mod.TaskSchedular() instanceof schedulerModule.TaskScheduler);
});

Deno.test("internal code uses the new heap names", () => {
  const source = Deno.readTextFileSync(new URL("../src/scheduler.ts", import.meta.url));
  assert.doesNotMatch(source, /\.popMin\(|\.peekMin\(/);
});

Deno.test("old entry points keep working", () => {
  const s = new mod.TaskSchedular();
  s.schedule("only", () => {});
  assert.equal(s.runAll(), 1);
});
