import assert from "node:assert/strict";
import { formatCents, parseAmount } from "../src/mod.ts";

Deno.test("parseAmount reads plain and grouped amounts", () => {
  assert.equal(parseAmount("1234.5"), 123450);
  assert.equal(parseAmount("$1,234.50"), 123450);
  assert.equal(parseAmount("12"), 1200);
});

Deno.test("parseAmount reads negative notations", () => {
  assert.equal(parseAmount("-12.50"), -1250);
  assert.equal(parseAmount("(40.00)"), -4000);
  assert.equal(parseAmount("99.00 DR"), -9900);
  assert.equal(parseAmount("99.00 cr"), 9900);
});

Deno.test("parseAmount rejects junk", () => {
  assert.throws(() => parseAmount("12.345"), /not an amount/);
  assert.throws(() => parseAmount("abc"), /not an amount/);
});

Deno.test("formatCents groups thousands", () => {
  assert.equal(formatCents(123456789), "1,234,567.89");
  assert.equal(formatCents(-5), "-0.05");
});
