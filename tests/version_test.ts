import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { VERSION } from "../src/version.ts";

Deno.test("VERSION is the version in deno.json", () => {
  const config = JSON.parse(readFileSync(new URL("../deno.json", import.meta.url), "utf8"));
  assert.equal(VERSION, config.version);
});
