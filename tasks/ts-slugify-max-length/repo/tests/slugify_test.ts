import assert from "node:assert/strict";
import { slugify } from "../src/slugify.ts";
import { transliterate } from "../src/transliterate.ts";
import { SlugRegistry } from "../src/unique.ts";

Deno.test("basic titles", () => {
  assert.equal(slugify("Hello, World!"), "hello-world");
  assert.equal(slugify("  Don't   panic  "), "dont-panic");
});

Deno.test("transliterates accents and ligatures", () => {
  assert.equal(transliterate("Smørrebrød"), "Smorrebrod");
  assert.equal(slugify("Crème Brûlée & Straße"), "creme-brulee-and-strasse");
});

Deno.test("custom separator and case", () => {
  assert.equal(slugify("Release Notes 2.0", { separator: "_", lowercase: false }), "Release_Notes_2_0");
});

Deno.test("registry appends counters to repeats", () => {
  const reg = new SlugRegistry();
  reg.reserve("intro");
  assert.equal(reg.next("Intro"), "intro-2");
  assert.equal(reg.next("Intro"), "intro-3");
  assert.equal(reg.next("!!!"), "untitled");
});
