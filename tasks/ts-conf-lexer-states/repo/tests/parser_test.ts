import assert from "node:assert/strict";
import { ConfSyntaxError, parse } from "../src/mod.ts";

Deno.test("parses scalars and blocks", () => {
  assert.deepEqual(parse('name = "billing"\nreplicas = 3\ndebug = false\n\ndb {\n  port = 5432\n}\n'), {
    name: "billing",
    replicas: 3,
    debug: false,
    db: { port: 5432 },
  });
});

Deno.test("arrays span lines", () => {
  assert.deepEqual(parse('regions = [\n  "eu",\n  "us"\n]'), { regions: ["eu", "us"] });
  assert.deepEqual(parse("empty = []"), { empty: [] });
});

Deno.test("a trailing comma in an array", () => {
  assert.deepEqual(parse('regions = ["eu-west", "us-east",]'), { regions: ["eu-west", "us-east"] });
  assert.deepEqual(parse("ports = [\n  80,\n  443,\n]"), { ports: [80, 443] });
});

Deno.test("comments end at the line break", () => {
  assert.deepEqual(parse('# service\nport = 80 # http\nhost = "h" # primary\n'), { port: 80, host: "h" });
});

Deno.test("syntax errors point at the token", () => {
  assert.throws(
    () => parse("a = 1\nb 2"),
    (e: unknown) => e instanceof ConfSyntaxError && e.line === 2 && e.col === 3,
  );
  assert.throws(() => parse("a = 1\na = 2"), /duplicate key "a"/);
  assert.throws(() => parse("a = [1,,2]"), ConfSyntaxError);
});
