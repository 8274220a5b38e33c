/**
 * patchgym.ray on a real two-node Ray cluster on 127.0.0.1 (clients/python/tests/test_ray.py), run
 * with the Python of the Ray venv that .ci/run makes (PATCHGYM_RAY_VENV, default
 * ~/.cache/patchgym/ray-venv). Skipped with a note when Ray is not installed there.
 *
 * Every process of the run carries a mark in its environment, so whatever it left (Ray nodes that
 * outlived a pytest that died through `os._exit`, as Ray's driver does when it loses its raylet)
 * is killed in `finally`. A failure shows pytest's output, unbuffered, and the end of every node's
 * log, never an empty message.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { killMarked } from "../_procs.ts";
import { childEnv, launcherArgv, ROOT } from "../cli/_run.ts";

/** The environment variable that marks this test's processes. */
const MARK = "PGTEST_RAY_RUN";

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
    // Short: Ray's socket paths under it must stay within the 107 bytes a Unix socket allows.
    const temp = await Deno.makeTempDir({ prefix: "pgray" });
    const mark = crypto.randomUUID();
    let result: { code: number; out: string; err: string } | undefined;
    let left: string[] = [];
    try {
      const { code, stdout, stderr } = await new Deno.Command(python, {
        args: [
          "-X",
          "faulthandler",
          "-m",
          "pytest",
          "-v",
          "-rfE",
          "-p",
          "no:cacheprovider",
          "clients/python/tests/test_ray.py",
        ],
        cwd: ROOT,
        clearEnv: true,
        env: {
          ...childEnv(),
          PYTHONDONTWRITEBYTECODE: "1",
          PYTHONUNBUFFERED: "1",
          [MARK]: mark,
          PATCHGYM_TEST_RAY_TEMP: temp,
          PATCHGYM_TEST_SERVE: JSON.stringify(launcherArgv(["serve"])),
          PATCHGYM_TEST_LAUNCHER: JSON.stringify(launcherArgv()),
        },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      result = {
        code,
        out: new TextDecoder().decode(stdout),
        err: new TextDecoder().decode(stderr),
      };
    } finally {
      left = (await killMarked(MARK, mark)).map((p) => `${p.pid} ${p.command.slice(0, 200)}`);
      if (result && (result.code !== 0 || left.length > 0)) result.err += nodeLogs(temp);
      await Deno.remove(temp, { recursive: true }).catch(() => {});
    }
    const report = [
      `pytest exited ${result.code}`,
      result.out.trim() ||
      "(pytest printed nothing on stdout: a Ray driver that loses its raylet ends through os._exit)",
      result.err.trim(),
      left.length ? `processes left behind (killed):\n${left.join("\n")}` : "",
    ].filter(Boolean).join("\n\n");
    assert.equal(result.code, 0, report);
    assert.match(result.out, /\b4 passed\b/, report);
    assert.deepEqual(left, [], report);
  },
});

/** The last lines of every Ray node's log and session log under `temp`, for a failure report. */
function nodeLogs(temp: string): string {
  const logs: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of entries) {
      const path = join(dir, name);
      let isDir = false;
      try {
        isDir = statSync(path).isDirectory();
      } catch {
        continue;
      }
      if (isDir && depth < 4 && name !== "runtime_resources") walk(path, depth + 1);
      else if (/^(node\d+\.log|raylet\.(out|err)|gcs_server\.(out|err))$/.test(name)) {
        logs.push(path);
      }
    }
  };
  if (existsSync(temp)) walk(temp, 0);
  return logs.map((path) => {
    const text = readFileSync(path, "utf8");
    const tail = text.split("\n").slice(-30).join("\n").trim();
    return `\n\n--- ${path.slice(temp.length + 1)} (last lines) ---\n${tail || "(empty)"}`;
  }).join("");
}
