import assert from "node:assert/strict";
import { Config, parse, tokenize } from "../src/mod.ts";

Deno.test("decimal with exponent is one number token", () => {
  assert.deepEqual(tokenize("x = 2.5E-3").map((t) => t.kind), ["ident", "equals", "number", "eof"]);
});

Deno.test("decimal exponents parse to numbers", () => {
  assert.deepEqual(parse("max_bytes = 1.5e9\nratio = -2.5e-1"), { max_bytes: 1500000000, ratio: -0.25 });
});

Deno.test("a comment line yields a newline token", () => {
  assert.deepEqual(tokenize("a = 1 # one\nb = 2").map((t) => t.kind), [
    "ident", "equals", "number", "newline", "ident", "equals", "number", "eof",
  ]);
});

Deno.test("comments after a block and inside arrays", () => {
  const source = 'db { # primary\n  port = 5432 # default\n} # end\nregions = [\n  "eu", # west\n  "us",\n]\n';
  assert.deepEqual(parse(source), { db: { port: 5432 }, regions: ["eu", "us"] });
});

Deno.test("the README example loads", () => {
  const config = Config.fromString(
    '# comments run to the end of the line\nname = "billing"\nreplicas = 3\ncpu = 0.5\nmax_bytes = 1.5e9\ndebug = false\nregions = ["eu-west", "us-east",]   # trailing commas are allowed\n\ndatabase {\n  host = "db.internal"\n  port = 5432\n}\n',
  );
  assert.equal(config.number("max_bytes"), 1500000000);
  assert.deepEqual(config.get("regions"), ["eu-west", "us-east"]);
  assert.equal(config.string("database.host"), "db.internal");
});

Deno.test("a single trailing comma after one item", () => {
  assert.deepEqual(parse("one = [1,]"), { one: [1] });
});

Deno.test("integers with exponents are unchanged", () => {
  assert.deepEqual(parse("a = 3e2\nb = -1E+1"), { a: 300, b: -10 });
});
