import assert from "node:assert/strict";
import { concat, shared } from "../src/bytes.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

Deno.test("concat() joins every part, or the first `length` bytes of them", () => {
  const parts = [bytes(1, 2), bytes(), bytes(3), bytes(4, 5, 6)];
  assert.deepEqual(concat(parts), bytes(1, 2, 3, 4, 5, 6));
  assert.deepEqual(concat(parts, 4), bytes(1, 2, 3, 4));
  assert.deepEqual(concat(parts, 0), bytes());
  assert.deepEqual(concat([]), bytes());
});

Deno.test("concat() returns the first part itself when it holds every byte asked for", () => {
  const first = bytes(7, 8, 9);
  const whole = concat([first]);
  assert.deepEqual(whole, first);
  assert.equal(whole.buffer, first.buffer);
  assert.deepEqual(concat([first, bytes(1)], 2), bytes(7, 8));
  // Copied otherwise: writing to the result leaves the parts alone.
  const joined = concat([first, bytes(1)]);
  joined[0] = 0;
  assert.equal(first[0], 7);
});

Deno.test("shared() copies bytes into memory threads share", () => {
  const bytes = new Uint8Array([5, 6, 7]);
  const copy = shared(bytes);
  assert.deepEqual([...copy], [5, 6, 7]);
  assert.ok(copy.buffer instanceof SharedArrayBuffer);
  bytes[0] = 0;
  assert.equal(copy[0], 5);
});
