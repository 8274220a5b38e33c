import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { envCommand } from "../../src/cli/env.ts";
import { writeFiles } from "../_fixtures.ts";
import { capture } from "./_capture.ts";

// A Node or Deno repository without dependencies used to fall through to the Python builder, which
// wrote a Python lock for it; each now says it declares none and builds nothing.
Deno.test("envCommand() build of a Node or Deno repository without dependencies builds nothing", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-env-cli-" });
  try {
    writeFiles(join(root, "node"), {
      "package.json": JSON.stringify({ name: "tally", scripts: { test: "node --test test/" } }),
      "src/tally.js": "exports.sum = (xs) => xs.reduce((a, b) => a + b, 0);\n",
      "test/tally.test.js": 'const test = require("node:test");\n',
    });
    writeFiles(join(root, "deno"), {
      "deno.json": JSON.stringify({ tasks: { test: "deno test" } }),
      "mod.ts": "export const add = (a: number, b: number) => a + b;\n",
    });
    for (const name of ["node", "deno"]) {
      const dir = join(root, name);
      const run = await capture(() =>
        envCommand(["build", dir, "--env-cache", join(root, "cache"), "--json"])
      );
      assert.equal(run.code, 0, run.err);
      const results = JSON.parse(run.out).results;
      assert.deepEqual(results.map((r: { status: string }) => r.status), ["none"], run.out);
      assert.equal(existsSync(join(dir, ".patchgym")), false, `${name}: a lock was written`);
    }
    assert.equal(existsSync(join(root, "cache")), false, "something was installed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
