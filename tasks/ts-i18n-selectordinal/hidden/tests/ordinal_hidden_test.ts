import assert from "node:assert/strict";
import { Catalog, format, MessageSyntaxError, ordinalCategory } from "../src/mod.ts";

const place = "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}";
const en = (n: number) => format(place, { n });

Deno.test("selectordinal 1st 2nd 3rd 4th", () => {
  assert.deepEqual([1, 2, 3, 4].map(en), ["1st", "2nd", "3rd", "4th"]);
});

Deno.test("selectordinal teens are th", () => {
  assert.deepEqual([11, 12, 13].map(en), ["11th", "12th", "13th"]);
});

Deno.test("selectordinal twenties and hundreds", () => {
  assert.deepEqual([21, 22, 23, 101, 111, 112, 1002].map(en), ["21st", "22nd", "23rd", "101st", "111th", "112th", "1,002nd"]);
});

Deno.test("selectordinal zero is th", () => {
  assert.equal(en(0), "0th");
});

Deno.test("selectordinal exact matches win", () => {
  assert.equal(format("{n, selectordinal, =1 {winner} one {#st} other {#th}}", { n: 1 }), "winner");
  assert.equal(format("{n, selectordinal, =1 {winner} one {#st} other {#th}}", { n: 21 }), "21st");
});

Deno.test("selectordinal uses the locale's ordinal rules", () => {
  const fr = "{n, selectordinal, one {#er} other {#e}}";
  assert.equal(format(fr, { n: 1 }, "fr"), "1er");
  assert.equal(format(fr, { n: 2 }, "fr"), "2e");
  assert.equal(format("{n, selectordinal, other {#.}}", { n: 3 }, "de"), "3.");
});

Deno.test("selectordinal differs from plural for the same number", () => {
  assert.equal(format("{n, plural, one {one} two {two} other {other}} / " + place, { n: 2 }), "other / 2nd");
});

Deno.test("selectordinal requires an other branch", () => {
  assert.throws(() => format("{n, selectordinal, one {#st}}", { n: 1 }), MessageSyntaxError);
});

Deno.test("ordinalCategory for English and unknown locales", () => {
  assert.equal(ordinalCategory("en-GB", 22), "two");
  assert.equal(ordinalCategory("en", 13), "other");
  assert.equal(ordinalCategory("xx", 1), "other");
});

Deno.test("Catalog formats ordinals with fallback", () => {
  const catalog = new Catalog({ en: { rank: "You finished " + place + "!" } });
  assert.equal(catalog.t("en-AU", "rank", { n: 42 }), "You finished 42nd!");
});

Deno.test("plural still works next to selectordinal", () => {
  assert.equal(format("{n, plural, one {# file} other {# files}}", { n: 2 }), "2 files");
});
