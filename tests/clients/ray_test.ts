/**
 * patchgym.ray on a real two-node Ray cluster on 127.0.0.1 (clients/python/tests/test_ray.py), run
 * with the Python of the Ray venv that .ci/run makes (PATCHGYM_RAY_VENV, default
 * ~/.cache/patchgym/ray-venv). Skipped with a note when Ray is not installed there.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { childEnv, launcherArgv, ROOT } from "../cli/_run.ts";

const venv = Deno.env.get("PATCHGYM_RAY_VENV") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "patchgym", "ray-venv");
const python = join(venv, "bin", "python");

const hasRay = (() => {
  try {
    return new Deno.Command(python, { args: ["-c", "import ray"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
})();

if (!hasRay) {
  console.error(
    `note: Ray is not installed in ${venv} (bash .ci/run installs it): the Ray pool tests are skipped`,
  );
}

Deno.test({
  name:
    "patchgym.ray: EnvPool and rollout --ray survive a killed replica and a killed node on a two-node cluster",
  ignore: !hasRay,
  fn: async () => {
    const { code, stdout, stderr } = await new Deno.Command(python, {
      args: ["-m", "pytest", "-q", "-p", "no:cacheprovider", "clients/python/tests/test_ray.py"],
      cwd: ROOT,
      clearEnv: true,
      env: {
        ...childEnv(),
        PYTHONDONTWRITEBYTECODE: "1",
        PATCHGYM_TEST_SERVE: JSON.stringify(launcherArgv(["serve"])),
        PATCHGYM_TEST_LAUNCHER: JSON.stringify(launcherArgv()),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout);
    assert.equal(code, 0, out + new TextDecoder().decode(stderr));
    assert.match(out, /\b4 passed\b/);
  },
});
