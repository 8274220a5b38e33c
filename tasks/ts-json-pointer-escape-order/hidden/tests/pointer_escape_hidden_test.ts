import assert from "node:assert/strict";
import { escapeToken, formatPointer, getAt, parsePointer, unescapeToken } from "../src/pointer.ts";
import { applyPatch } from "../src/patch.ts";

Deno.test("unescapeToken decodes ~01 as a literal ~1", () => {
  assert.equal(unescapeToken("~01"), "~1");
});

Deno.test("parsePointer keeps a tilde followed by 1", () => {
  assert.deepEqual(parsePointer("/release~01.2/notes"), ["release~1.2", "notes"]);
});

Deno.test("getAt finds keys containing ~1", () => {
  const doc = { "a~1b": "tilde-one", "a/b": "slash" };
  assert.equal(getAt(doc, "/a~01b"), "tilde-one");
});

Deno.test("escape and unescape round-trip awkward keys", () => {
  for (const key of ["~1", "~0", "a~/b", "~~//", "/~1/"]) {
    assert.equal(unescapeToken(escapeToken(key)), key);
  }
});

Deno.test("patch replaces a key containing ~1", () => {
  const doc = { labels: { "team~1ops": "old" } };
  const out = applyPatch(doc, [{ op: "replace", path: formatPointer(["labels", "team~1ops"]), value: "new" }]);
  assert.deepEqual(out, { labels: { "team~1ops": "new" } });
});

Deno.test("plain escapes still decode", () => {
  assert.equal(unescapeToken("a~1b~0c"), "a/b~c");
  assert.equal(getAt({ "m~n": 8 }, "/m~0n"), 8);
});
