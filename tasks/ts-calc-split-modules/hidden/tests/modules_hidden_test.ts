import assert from "node:assert/strict";
import * as calc from "../src/calc.ts";

// New modules are loaded lazily so that the behaviour tests still run without them.
const lexer = () => import("../src/lexer.ts");
const parser = () => import("../src/parser.ts");
const evaluator = () => import("../src/evaluate.ts");
const errors = () => import("../src/errors.ts");

Deno.test("lexer module tokenizes", async () => {
  const { tokenize } = await lexer();
  assert.deepEqual(tokenize("2*(x + 1.5e3)"), [
    { kind: "number", text: "2", pos: 0 },
    { kind: "op", text: "*", pos: 1 },
    { kind: "lparen", text: "(", pos: 2 },
    { kind: "ident", text: "x", pos: 3 },
    { kind: "op", text: "+", pos: 5 },
    { kind: "number", text: "1.5e3", pos: 7 },
    { kind: "rparen", text: ")", pos: 12 },
    { kind: "eof", text: "", pos: 13 },
  ]);
});

Deno.test("lexer errors are CalcErrors from the errors module", async () => {
  const { tokenize } = await lexer();
  const { CalcError } = await errors();
  assert.throws(() => tokenize("2 $ 3"), (e: unknown) => e instanceof CalcError && e.pos === 2);
});

Deno.test("parser module builds the AST", async () => {
  const { parse } = await parser();
  assert.deepEqual(parse("-2^2"), {
    type: "unary",
    op: "-",
    arg: { type: "binary", op: "^", left: { type: "num", value: 2 }, right: { type: "num", value: 2 } },
  });
  assert.deepEqual(parse("max(a, 1)"), {
    type: "call",
    name: "max",
    args: [{ type: "var", name: "a" }, { type: "num", value: 1 }],
  });
});

Deno.test("evaluate module evaluates ASTs", async () => {
  const { parse } = await parser();
  const { evaluate } = await evaluator();
  assert.equal(evaluate(parse("max(a, 2) * 3"), { a: 5 }), 15);
  assert.equal(evaluate({ type: "binary", op: "-", left: { type: "num", value: 1 }, right: { type: "var", name: "pi" } }), 1 - Math.PI);
  assert.throws(() => evaluate(parse("q")), /unknown variable q/);
});

Deno.test("calc re-exports the same CalcError", async () => {
  const { CalcError } = await errors();
  assert.equal(calc.CalcError, CalcError);
});

Deno.test("calc.ts is only a facade", () => {
  const source = Deno.readTextFileSync(new URL("../src/calc.ts", import.meta.url));
  assert.match(source, /from\s+["']\.\/parser\.ts["']/);
  assert.match(source, /from\s+["']\.\/evaluate\.ts["']/);
  assert.doesNotMatch(source, /function\s+(tokenize|parse|evaluate)\b/);
});

Deno.test("behaviour through the facade is unchanged", () => {
  assert.equal(calc.calculate("floor(7 / 2) % 2 + abs(-1)"), 2);
  assert.throws(() => calc.calculate("max()"), /wrong number of arguments for max/);
  assert.throws(() => calc.calculate("1 2"), (e: unknown) => e instanceof calc.CalcError && e.pos === 2);
});
