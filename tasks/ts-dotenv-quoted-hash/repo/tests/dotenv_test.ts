import assert from "node:assert/strict";
import { EnvSyntaxError, parseEnv } from "../src/parse.ts";
import { loadEnv } from "../src/load.ts";
import { expand } from "../src/expand.ts";

const FILE = `
# database
export DB_HOST=localhost
DB_PORT=5432   # default port

GREETING="hello\\nworld"
RAW='\${NOT_EXPANDED}'
DB_URL=postgres://\${DB_HOST}:\${DB_PORT}/app
PAGE=http://example.com/#top
`;

Deno.test("unquoted values drop inline comments", () => {
  const env = loadEnv(FILE);
  assert.equal(env.DB_HOST, "localhost");
  assert.equal(env.DB_PORT, "5432");
  assert.equal(env.PAGE, "http://example.com/#top");
});

Deno.test("quoted values keep hash characters", () => {
  const env = loadEnv('DB_USER=app\nDB_PASSWORD="s3cr3t #pass"   # quoted, keeps the hash\n');
  assert.equal(env.DB_PASSWORD, "s3cr3t #pass");
});

Deno.test("double quotes process escapes, single quotes are literal", () => {
  const env = loadEnv(FILE);
  assert.equal(env.GREETING, "hello\nworld");
  assert.equal(env.RAW, "${NOT_EXPANDED}");
});

Deno.test("references expand from earlier entries", () => {
  assert.equal(loadEnv(FILE).DB_URL, "postgres://localhost:5432/app");
  assert.equal(expand("${MISSING:-fallback} \\$5", () => undefined), "fallback $5");
});

Deno.test("base values win unless override is set", () => {
  assert.equal(loadEnv("A=file", { base: { A: "base" } }).A, "base");
  assert.equal(loadEnv("A=file", { base: { A: "base" }, override: true }).A, "file");
});

Deno.test("syntax errors report the line", () => {
  assert.throws(() => parseEnv("OK=1\nnot valid\n"), (e: unknown) => e instanceof EnvSyntaxError && e.line === 2);
});
