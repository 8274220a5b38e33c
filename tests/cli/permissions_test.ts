/**
 * The narrow Deno permission flags of the `patchgym` task (DESIGN "Two layers of sandbox", layer 1):
 * enough for a real rollout, and nothing beyond the task data, the workspace root, the output root,
 * the allowlisted runners, named environment variables and the local model host.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionFlags } from "../../scripts/compile.ts";
import {
  jsonLines,
  makeRunDir,
  patchgymTask,
  removeRunDir,
  ROOT,
  runArgv,
  runPatchgym,
  taskFlags,
} from "./_run.ts";

Deno.test("runCli() completes a reference rollout under the patchgym task flags", async () => {
  const out = makeRunDir("perm-rollout");
  try {
    const result = await runPatchgym(["rollout", "--tasks", "py-median-even", "--out", out]);
    assert.equal(result.code, 0, result.stderr);
    const records = jsonLines(readFileSync(join(ROOT, out, "trajectories.jsonl"), "utf8"));
    assert.equal(records.length, 1);
    assert.equal(records[0].format, "patchgym.trajectory.v1");
    assert.equal((records[0].reward as { total: number }).total, 1);
    assert.ok(existsSync(join(ROOT, out, "summary.json")));
  } finally {
    removeRunDir(out);
  }
});

const PROBE = `
const dir = Deno.args[0];
async function attempt(action: () => unknown, { refusedIsAllowed = false } = {}) {
  try {
    await action();
    return "allowed";
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) return "denied";
    // Nothing listens there: the connection was permitted, then refused.
    if (refusedIsAllowed) return "allowed";
    return "error " + (error as Error).name + ": " + (error as Error).message;
  }
}
const outcomes = {
  read_repo_config: await attempt(() => Deno.readTextFileSync("deno.json")),
  read_etc: await attempt(() => Deno.readTextFileSync("/etc/hostname")),
  write_outside: await attempt(() => Deno.writeTextFileSync("/tmp/patchgym-outside.txt", "x")),
  write_tasks: await attempt(() => Deno.writeTextFileSync("tasks/patchgym-probe.txt", "x")),
  run_ls: await attempt(() => new Deno.Command("ls").outputSync()),
  env_path: await attempt(() => Deno.env.get("PATH")),
  net_remote: await attempt(async () => (await fetch("http://example.com", { signal: AbortSignal.timeout(5000) })).body?.cancel()),
  read_tasks: await attempt(() => Deno.readTextFileSync("tasks/py-median-even/task.json")),
  write_runs: await attempt(() => Deno.writeTextFileSync(dir + "/written.txt", "x")),
  env_home: await attempt(() => Deno.env.get("HOME")),
  net_local: await attempt(async () => (await fetch("http://127.0.0.1:9/", { signal: AbortSignal.timeout(5000) })).body?.cancel(), { refusedIsAllowed: true }),
  run_python3: await attempt(() => new Deno.Command("python3", { args: ["-c", "pass"] }).outputSync()),
  run_sh: await attempt(() => new Deno.Command("sh", { args: ["-c", "true"] }).outputSync()),
};
console.log(JSON.stringify(outcomes));
`;

Deno.test("runCli() permissions deny reads, writes, commands, env and net outside the allowlist", async () => {
  const dir = makeRunDir("perm-probe");
  try {
    writeFileSync(join(ROOT, dir, "probe.ts"), PROBE);
    const result = await runArgv([
      Deno.execPath(),
      "run",
      ...taskFlags(),
      join(dir, "probe.ts"),
      dir,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      read_repo_config: "denied",
      read_etc: "denied",
      write_outside: "denied",
      write_tasks: "denied",
      run_ls: "denied",
      // Children start through the sh launcher only (it joins the sandbox's cgroups first).
      run_python3: "denied",
      env_path: "denied",
      net_remote: "denied",
      // Controls: the probe can tell allowed from denied.
      read_tasks: "allowed",
      write_runs: "allowed",
      env_home: "allowed",
      run_sh: "allowed",
      net_local: "allowed",
    });
  } finally {
    removeRunDir(dir);
    rmSync("/tmp/patchgym-outside.txt", { force: true });
    rmSync(join(ROOT, "tasks/patchgym-probe.txt"), { force: true });
  }
});

Deno.test("permissionFlags() sees only scoped grants in the patchgym task", () => {
  const task = patchgymTask();
  assert.ok(!task.includes("-A"), "-A in the patchgym task");
  assert.ok(!task.some((arg) => arg.startsWith("--allow-all")), "--allow-all in the patchgym task");
  for (const arg of task.filter((a) => a.startsWith("--allow-"))) {
    assert.ok(arg.includes("="), `"${arg}" grants everything; give it a list`);
    assert.ok(!/^--allow-(ffi|sys|import)/.test(arg), `"${arg}" is not needed by patchgym`);
  }
  assert.ok(task.includes("--no-prompt"));
});

Deno.test("permissionFlags() returns exactly the flags of the patchgym task", () => {
  const config = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8"));
  assert.deepEqual(permissionFlags(config.tasks.patchgym), taskFlags());
});
