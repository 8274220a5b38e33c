import assert from "node:assert/strict";
import { cardinalCategory, format, MessageSyntaxError, MissingValueError } from "../src/mod.ts";

Deno.test("format() inserts arguments and formats numbers", () => {
  assert.equal(format("Hello {name}, you have {n} points", { name: "Ada", n: 12345 }), "Hello Ada, you have 12,345 points");
});

Deno.test("format() picks plural branches", () => {
  const msg = "{n, plural, =0 {no files} one {# file} other {# files}}";
  assert.equal(format(msg, { n: 0 }), "no files");
  assert.equal(format(msg, { n: 1 }), "1 file");
  assert.equal(format(msg, { n: 1500 }), "1,500 files");
});

Deno.test("format() uses the locale's plural rules", () => {
  const msg = "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}";
  assert.equal(format(msg, { n: 3 }, "pl"), "3 pliki");
  assert.equal(format(msg, { n: 12 }, "pl"), "12 plików");
  assert.equal(format(msg, { n: 22 }, "pl"), "22 pliki");
});

Deno.test("format() picks select branches and nests", () => {
  const msg = "{role, select, admin {{n, plural, one {# admin} other {# admins}}} other {guest}}";
  assert.equal(format(msg, { role: "admin", n: 2 }), "2 admins");
  assert.equal(format(msg, { role: "x", n: 2 }), "guest");
});

Deno.test("format() honours apostrophe quoting", () => {
  assert.equal(format("'{'literal'}' and it''s fine"), "{literal} and it's fine");
});

Deno.test("syntax and value errors", () => {
  assert.throws(() => format("{n, plural, one {x}}", { n: 1 }), MessageSyntaxError);
  assert.throws(() => format("{d, date, short}", { d: 1 }), /unknown argument type "date"/);
  assert.throws(() => format("{who}"), MissingValueError);
});

Deno.test("cardinalCategory uses the base language", () => {
  assert.equal(cardinalCategory("fr-CA", 0), "one");
  assert.equal(cardinalCategory("xx", 1), "other");
});
