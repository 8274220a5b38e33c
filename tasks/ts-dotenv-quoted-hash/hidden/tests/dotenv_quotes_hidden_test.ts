import assert from "node:assert/strict";
import { EnvSyntaxError, parseEnv } from "../src/parse.ts";
import { loadEnv } from "../src/load.ts";

Deno.test("single quoted value with a spaced hash", () => {
  assert.equal(loadEnv("TOKEN='abc #def'").TOKEN, "abc #def");
});

Deno.test("quoted value followed by a comment", () => {
  assert.deepEqual(parseEnv('MSG="a # b"  # trailing comment'), [
    { key: "MSG", value: "a # b", expand: true, line: 1 },
  ]);
});

Deno.test("double quoted multi-word value with hash and reference", () => {
  assert.equal(loadEnv('USER=ann\nLINE="${USER} #1 fan"').LINE, "ann #1 fan");
});

Deno.test("unquoted inline comments are still stripped", () => {
  assert.equal(loadEnv("A=1 # one\nB=x#y").A, "1");
  assert.equal(loadEnv("B=x#y").B, "x#y");
});

Deno.test("unterminated quotes are still errors", () => {
  assert.throws(() => parseEnv('A="open'), EnvSyntaxError);
  assert.throws(() => parseEnv('A="x" junk'), EnvSyntaxError);
});
