import assert from "node:assert/strict";
import { parse } from "../src/mod.ts";

Deno.test("parse() reads flat pairs and decodes plus as space", () => {
  assert.deepEqual(parse("?q=hello+world&lang=en%2DGB"), { q: "hello world", lang: "en-GB" });
});

Deno.test("parse() builds nested objects from bracket keys", () => {
  assert.deepEqual(parse("user[name]=Ada&user[address][city]=London"), {
    user: { name: "Ada", address: { city: "London" } },
  });
});

Deno.test("parse() appends empty-bracket keys to arrays", () => {
  assert.deepEqual(parse("tags[]=a&tags[]=b"), { tags: ["a", "b"] });
});

Deno.test("parse() orders indexed keys that arrive out of order", () => {
  assert.deepEqual(parse("a[2]=c&a[0]=a&a[1]=b"), { a: ["a", "b", "c"] });
});

Deno.test("parse() builds arrays of objects", () => {
  assert.deepEqual(parse("items[0][sku]=A1&items[0][qty]=2&items[1][sku]=B7&items[1][qty]=1"), {
    items: [{ sku: "A1", qty: "2" }, { sku: "B7", qty: "1" }],
  });
});

Deno.test("parse() collects repeated plain keys", () => {
  assert.deepEqual(parse("x=1&x=2&y="), { x: ["1", "2"], y: "" });
});
