import assert from "node:assert/strict";
import { tokenize, IniSyntaxError } from "../src/lexer.ts";
import { Config } from "../src/config.ts";

const SAMPLE = `
; global settings
name = demo

[server]
host = example.org   ; inline comment
port = 8080
motd = "hello\\tworld ; not a comment"

[features]
beta = yes
`;

Deno.test("tokenizes sections and pairs", () => {
  const tokens = tokenize("[a]\nk = v\n# c\n");
  assert.deepEqual(tokens, [
    { type: "section", name: "a", line: 1 },
    { type: "pair", key: "k", value: "v", line: 2 },
  ]);
});

Deno.test("reads typed values", () => {
  const cfg = Config.parse(SAMPLE);
  assert.equal(cfg.get("", "name"), "demo");
  assert.equal(cfg.get("server", "host"), "example.org");
  assert.equal(cfg.getNumber("server", "port"), 8080);
  assert.equal(cfg.getBoolean("features", "beta"), true);
});

Deno.test("quoted values keep comment characters", () => {
  assert.equal(Config.parse(SAMPLE).get("server", "motd"), "hello\tworld ; not a comment");
});

Deno.test("missing values use the fallback", () => {
  const cfg = Config.parse(SAMPLE);
  assert.equal(cfg.get("server", "timeout", "30"), "30");
  assert.equal(cfg.getNumber("nope", "x", 5), 5);
  assert.deepEqual(cfg.sections(), ["server", "features"]);
});

Deno.test("syntax errors carry the line number", () => {
  assert.throws(() => tokenize("[ok]\nbroken line\n"), (e: unknown) => e instanceof IniSyntaxError && e.line === 2);
});
