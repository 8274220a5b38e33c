import assert from "node:assert/strict";
import { parse, stringify } from "../src/mod.ts";

const twelve = Array.from({ length: 12 }, (_, i) => `n${i}`);

Deno.test("parse() keeps index order past ten items", () => {
  const query = twelve.map((v, i) => `a[${i}]=${v}`).join("&");
  assert.deepEqual(parse(query), { a: twelve });
});

Deno.test("parse() puts index 10 after index 9", () => {
  assert.equal((parse("a[9]=nine&a[10]=ten&a[2]=two").a as string[])[2], "ten");
});

Deno.test("parse() orders large out-of-order indices numerically", () => {
  assert.deepEqual(parse("a[100]=z&a[20]=y&a[3]=x"), { a: ["x", "y", "z"] });
});

Deno.test("parse() inverts stringify() for long arrays of objects", () => {
  const form = { items: Array.from({ length: 11 }, (_, i) => ({ sku: `S${i}`, qty: String(i) })) };
  assert.deepEqual(parse(stringify(form)), form);
});

Deno.test("parse() still orders small out-of-order indices", () => {
  assert.deepEqual(parse("a[1]=b&a[0]=a"), { a: ["a", "b"] });
});
