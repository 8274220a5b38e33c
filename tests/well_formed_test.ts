import assert from "node:assert/strict";
import { parseJson, wellFormed } from "../src/well_formed.ts";

Deno.test("parseJson() replaces lone surrogates in strings and keys, keeps pairs", () => {
  const value = parseJson(
    '{"a\\ud800":["\\udfff",{"b":"x\\ud83d\\ude00y"}],"__proto__":"\\ud800z","n":1}',
  ) as Record<string, unknown>;
  assert.deepEqual(Object.keys(value), ["a\ufffd", "__proto__", "n"]);
  assert.deepEqual(value["a\ufffd"], ["\ufffd", { b: "x\u{1f600}y" }]);
  assert.equal(Object.getOwnPropertyDescriptor(value, "__proto__")?.value, "\ufffdz");
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.ok(JSON.stringify(value).isWellFormed());
  assert.doesNotMatch(JSON.stringify(value), /\\ud[89a-f]/i);
});

Deno.test("wellFormed() keeps values with nothing to replace and walks deep nesting", () => {
  const plain = { a: ["b", 1, null, { c: true }] };
  assert.equal(wellFormed(plain), plain);
  let deep: unknown = "\ud800";
  for (let i = 0; i < 100_000; i++) deep = [deep];
  let inner = wellFormed(deep);
  for (let i = 0; i < 100_000; i++) inner = (inner as unknown[])[0];
  assert.equal(inner, "\ufffd");
  assert.equal(wellFormed("\udc00"), "\ufffd");
});
