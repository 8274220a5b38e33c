import assert from "node:assert/strict";
import { parse, parseKey, stringify } from "../src/mod.ts";

Deno.test("stringify() writes nested keys with indices", () => {
  assert.equal(stringify({ user: { name: "Ada L", tags: ["x", "y"] } }), "user[name]=Ada+L&user[tags][0]=x&user[tags][1]=y");
});

Deno.test("stringify() supports the brackets array format", () => {
  assert.equal(stringify({ tags: ["x", "y"] }, { arrayFormat: "brackets" }), "tags[]=x&tags[]=y");
});

Deno.test("stringify() skips null and undefined", () => {
  assert.equal(stringify({ a: null, b: undefined, c: 0, d: false }), "c=0&d=false");
});

Deno.test("parse() inverts stringify() for small arrays", () => {
  const form = { order: { lines: [{ sku: "A", qty: "1" }, { sku: "B", qty: "3" }] } };
  assert.deepEqual(parse(stringify(form)), form);
});

Deno.test("parseKey() splits bracket paths", () => {
  assert.deepEqual(parseKey("a[b][][c]"), ["a", "b", "", "c"]);
  assert.deepEqual(parseKey("a[b"), ["a[b"]);
  assert.deepEqual(parseKey("[x]"), ["[x]"]);
});
