/** The Python client's own suite (clients/python/tests), run with python3 and pytest. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { MCP_VENV } from "../_venv.ts";
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
  assert.match(out, /\b1[0-9] passed\b/);
});

// Issue 25: `pip install ./clients/python` left build/ and patchgym.egg-info in the checkout.
Deno.test({
  name: "clients/python: building the package leaves no build/ or *.egg-info in the checkout",
  ignore: MCP_VENV.skip !== null,
  fn: async () => {
    const out = await Deno.makeTempDir({ prefix: "patchgym-wheel-" });
    const listing = () => [...Deno.readDirSync(join(ROOT, "clients/python"))].map((e) => e.name);
    const before = listing();
    try {
      const { code, stdout, stderr } = await new Deno.Command(MCP_VENV.python, {
        args: ["-m", "pip", "wheel", "--no-deps", "-q", "-w", out, join(ROOT, "clients/python")],
        cwd: out,
        env: { PIP_RETRIES: "0", PIP_TIMEOUT: "5", PIP_DISABLE_PIP_VERSION_CHECK: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
      assert.equal(code, 0, text);
      assert.ok([...Deno.readDirSync(out)].some((e) => e.name.endsWith(".whl")), text);
      assert.deepEqual(listing().sort(), before.sort());
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  },
});
