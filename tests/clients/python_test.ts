/** The Python client's own suite (clients/python/tests), run with python3 and pytest. */
import assert from "node:assert/strict";
import { childEnv, launcherArgv, ROOT } from "../cli/_run.ts";

Deno.test("clients/python: the pytest suite passes over stdio, WebSocket and OpenEnv framing", async () => {
  const { code, stdout, stderr } = await new Deno.Command("python3", {
    args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", "clients/python/tests"],
    cwd: ROOT,
    clearEnv: true,
    env: {
      ...childEnv(),
      PYTHONDONTWRITEBYTECODE: "1",
      // The launcher: it derives the permissions from the flags the suite appends (--http, ...).
      PATCHGYM_TEST_SERVE: JSON.stringify(launcherArgv(["serve"])),
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  assert.equal(code, 0, out + new TextDecoder().decode(stderr));
  assert.match(out, /\b[1-9][0-9] passed\b/);
});
