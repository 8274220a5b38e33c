import assert from "node:assert/strict";
import { ConfSyntaxError, tokenize } from "../src/lexer/mod.ts";

const kinds = (source: string) => tokenize(source).map((t) => t.kind);
const texts = (source: string) => tokenize(source).filter((t) => t.kind === "number").map((t) => t.text);

Deno.test("tokenizes an assignment", () => {
  assert.deepEqual(kinds('name = "x"'), ["ident", "equals", "string", "eof"]);
});

Deno.test("integers and decimals with signs", () => {
  assert.deepEqual(texts("a = 42\nb = -7\nc = +0.25"), ["42", "-7", "+0.25"]);
});

Deno.test("exponents", () => {
  assert.deepEqual(texts("a = 1e9\nb = 2E-3\nc = 1.5e9\nd = -0.25e+2"), ["1e9", "2E-3", "1.5e9", "-0.25e+2"]);
});

Deno.test("string escapes", () => {
  const [, , str] = tokenize('msg = "a\\tb \\"q\\" \\\\ end\\n"');
  assert.equal(str.text, 'a\tb "q" \\ end\n');
});

Deno.test("positions are 1-based", () => {
  const tokens = tokenize("a = 1\n  bb = 2");
  assert.deepEqual(tokens.filter((t) => t.kind === "ident").map((t) => [t.text, t.line, t.col]), [
    ["a", 1, 1],
    ["bb", 2, 3],
  ]);
});

Deno.test("positions after comments", () => {
  const tokens = tokenize("# header\nport = 80 # http\nhost = \"h\"");
  assert.deepEqual(tokens.filter((t) => t.kind === "ident").map((t) => [t.text, t.line, t.col]), [
    ["port", 2, 1],
    ["host", 3, 1],
  ]);
});

Deno.test("lexical errors carry positions", () => {
  assert.throws(() => tokenize('a = "open'), (e: unknown) => e instanceof ConfSyntaxError && e.line === 1);
  assert.throws(() => tokenize("a = 1.\n"), ConfSyntaxError);
  assert.throws(() => tokenize("a = 1e\n"), ConfSyntaxError);
  assert.throws(() => tokenize("a = @"), (e: unknown) => e instanceof ConfSyntaxError && e.col === 5);
});
