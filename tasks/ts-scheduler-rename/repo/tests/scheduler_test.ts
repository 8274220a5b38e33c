import assert from "node:assert/strict";
import { BinaryHeap, TaskSchedular } from "../src/mod.ts";

Deno.test("heap pops in comparator order", () => {
  const heap = new BinaryHeap<number>();
  heap.push(5, 1, 4, 2, 3);
  const out: number[] = [];
  while (heap.size) out.push(heap.popMin()!);
  assert.deepEqual(out, [1, 2, 3, 4, 5]);
});

Deno.test("max heap via comparator", () => {
  const heap = new BinaryHeap<number>((a, b) => b - a);
  heap.push(2, 9, 4);
  assert.equal(heap.peekMin(), 9);
  assert.equal(heap.popMin(), 9);
  assert.equal(heap.size, 2);
});

Deno.test("scheduler runs higher priority first, FIFO within a priority", () => {
  const s = new TaskSchedular();
  const noop = () => {};
  s.schedule("low", noop, -1).schedule("a", noop).schedule("urgent", noop, 10).schedule("b", noop);
  assert.equal(s.peekNext(), "urgent");
  assert.equal(s.runAll(), 4);
  assert.deepEqual(s.completed, ["urgent", "a", "b", "low"]);
});

Deno.test("jobs can schedule more jobs", () => {
  const s = new TaskSchedular();
  s.schedule("parent", () => void s.schedule("child", () => {}, 5));
  s.runAll();
  assert.deepEqual(s.completed, ["parent", "child"]);
  assert.equal(s.runNext(), undefined);
});
