import assert from "node:assert/strict";
import { Config } from "../src/config.ts";
import { parseIni } from "../src/parser.ts";

const TEXT = `
[Server]
Host = a.example
Port = 80

[database]
URL = postgres://db

[SERVER]
port = 8080
`;

Deno.test("lookups ignore case", () => {
  const cfg = Config.parse(TEXT);
  assert.equal(cfg.get("server", "host"), "a.example");
  assert.equal(cfg.get("SERVER", "HOST"), "a.example");
  assert.equal(cfg.get("Database", "url"), "postgres://db");
  assert.equal(cfg.has("DATABASE", "Url"), true);
});

Deno.test("sections differing only in case are merged", () => {
  const cfg = Config.parse(TEXT);
  assert.deepEqual(cfg.sections(), ["server", "database"]);
  assert.equal(cfg.getNumber("Server", "Port"), 8080);
  assert.deepEqual(cfg.keys("server"), ["host", "port"]);
});

Deno.test("parsed document stores lower case names", () => {
  const doc = parseIni(TEXT);
  assert.deepEqual([...doc.keys()], ["", "server", "database"]);
  assert.deepEqual([...doc.get("database")!.entries()], [["url", "postgres://db"]]);
});

Deno.test("values keep their case", () => {
  const cfg = Config.parse("[App]\nTitle = Hello World\n");
  assert.equal(cfg.get("app", "TITLE"), "Hello World");
});

Deno.test("lower case files keep working", () => {
  const cfg = Config.parse("[a]\nk = 1\nflag = off\n");
  assert.equal(cfg.getNumber("a", "k"), 1);
  assert.equal(cfg.getBoolean("a", "flag"), false);
  assert.equal(cfg.get("b", "k"), undefined);
});
