import assert from "node:assert/strict";
import { escapeToken, formatPointer, getAt, has, parsePointer } from "../src/pointer.ts";
import { PatchError } from "../src/errors.ts";

const doc = { foo: ["bar", "baz"], "": 0, "a/b": 1, "m~n": 8, nested: { list: [{ id: 7 }] } };

Deno.test("parsePointer splits and unescapes tokens", () => {
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/foo/0"), ["foo", "0"]);
  assert.deepEqual(parsePointer("/a~1b"), ["a/b"]);
  assert.deepEqual(parsePointer("/m~0n"), ["m~n"]);
});

Deno.test("getAt resolves the RFC 6901 examples", () => {
  assert.deepEqual(getAt(doc, ""), doc);
  assert.deepEqual(getAt(doc, "/foo"), ["bar", "baz"]);
  assert.equal(getAt(doc, "/foo/0"), "bar");
  assert.equal(getAt(doc, "/"), 0);
  assert.equal(getAt(doc, "/a~1b"), 1);
  assert.equal(getAt(doc, "/m~0n"), 8);
  assert.equal(getAt(doc, "/nested/list/0/id"), 7);
});

Deno.test("invalid pointers and missing paths raise PatchError", () => {
  assert.throws(() => parsePointer("foo"), PatchError);
  assert.throws(() => parsePointer("/a~2"), PatchError);
  assert.throws(() => getAt(doc, "/foo/01"), PatchError);
  assert.throws(() => getAt(doc, "/missing"), PatchError);
  assert.equal(has(doc, "/foo/2"), false);
});

Deno.test("escapeToken and formatPointer", () => {
  assert.equal(escapeToken("a/b~c"), "a~1b~0c");
  assert.equal(formatPointer(["foo", "a/b", "0"]), "/foo/a~1b/0");
});
