import assert from "node:assert/strict";
import { check, Config, ConfigError } from "../src/mod.ts";

const config = Config.fromString('name = "api"\ndatabase {\n  host = "db"\n  port = 5432\n}\ntags = ["a"]\n');

Deno.test("typed getters by dotted path", () => {
  assert.equal(config.string("name"), "api");
  assert.equal(config.number("database.port"), 5432);
  assert.equal(config.boolean("debug", false), false);
  assert.throws(() => config.number("database.host"), ConfigError);
  assert.throws(() => config.string("missing"), ConfigError);
});

Deno.test("schema check reports every problem", () => {
  assert.deepEqual(check(config, { name: "string", "database.port": "string", tags: "array", "cache?": "block", timeout: "number" }), [
    "database.port: expected string, got number",
    "timeout: expected number, got missing",
  ]);
});
