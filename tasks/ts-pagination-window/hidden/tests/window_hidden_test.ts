import assert from "node:assert/strict";
import { pageWindow } from "../src/window.ts";

Deno.test("window near the end", () => {
  assert.deepEqual(pageWindow(9, 10), [1, "…", 6, 7, 8, 9, 10]);
  assert.deepEqual(pageWindow(8, 10), [1, "…", 6, 7, 8, 9, 10]);
});

Deno.test("window when all pages fit", () => {
  assert.deepEqual(pageWindow(3, 4), [1, 2, 3, 4]);
  assert.deepEqual(pageWindow(4, 4, 4), [1, 2, 3, 4]);
});

Deno.test("window always has the requested width", () => {
  for (let current = 1; current <= 20; current++) {
    const numbers = pageWindow(current, 20, 7).filter((x) => x !== "…") as number[];
    const middle = numbers.filter((n) => n !== 1 && n !== 20);
    assert.ok(numbers.includes(current), `page ${current} missing`);
    assert.ok(middle.length >= 5, `window for ${current} too small: ${numbers}`);
    assert.ok(Math.max(...numbers) === 20);
  }
});

Deno.test("window with a single page", () => {
  assert.deepEqual(pageWindow(1, 1), [1]);
  assert.deepEqual(pageWindow(1, 0), []);
});

Deno.test("window just after the start", () => {
  assert.deepEqual(pageWindow(4, 10), [1, 2, 3, 4, 5, 6, "…", 10]);
});

Deno.test("narrow window at the end", () => {
  assert.deepEqual(pageWindow(10, 10, 3), [1, "…", 8, 9, 10]);
  assert.deepEqual(pageWindow(3, 3, 2), [1, 2, 3]);
});
