import assert from "node:assert/strict";
import { decodeText } from "../../src/workspace/text.ts";

const encoder = new TextEncoder();

Deno.test("decodeText() returns null for NUL bytes and invalid UTF-8", () => {
  assert.equal(decodeText(encoder.encode("héllo ✓")), "héllo ✓");
  assert.equal(decodeText(new Uint8Array()), "");
  assert.equal(decodeText(new Uint8Array([0x61, 0, 0x62])), null);
  assert.equal(decodeText(new Uint8Array([0xc3, 0x28])), null);
});

Deno.test("decodeText() drops a byte-order mark unless asked to keep it", () => {
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
  assert.equal(decodeText(bytes), "a");
  assert.equal(decodeText(bytes, { keepBom: true }), "\uFEFFa");
});
