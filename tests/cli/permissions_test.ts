/**
 * The Deno permission flags of the orchestrator (DESIGN "Two layers of sandbox", layer 1):
 * `deno task patchgym` runs launch.ts, which derives them from the command line; the compiled
 * binary has a fixed set. Either way: enough for the command, and nothing beyond the files,
 * folders and hosts it names, the task folder, the workspace root, the allowlisted runners and
 * named environment variables.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import {
  BINARY_FLAGS,
  hostOf,
  LEASE_DIR,
  permissionFlags,
  type PermissionPlan,
  planPermissions,
  POOL_MODULE_READS,
  redisHostOf,
  SYSTEM_READ,
  VALUE_FLAGS,
} from "../../src/cli/permissions.ts";
import { defaultWorkRoot } from "../../src/agent/environment.ts";
import { buildLauncher, SPAWNER_MODULE_READS } from "../../src/sandbox/launcher.ts";
import { buildProgramFolder, programEntries } from "../../src/sandbox/program_folder.ts";
import {
  childEnv,
  jsonLines,
  launcherArgv,
  makeRunDir,
  patchgymTask,
  removeRunDir,
  ROOT,
  runArgv,
  runLauncher,
  runPatchgym,
  taskFlags,
} from "./_run.ts";

const CONTEXT = { cwd: "/home/u/work", env: {}, bundledTasks: "/opt/patchgym/tasks" };

Deno.test("runCli() completes a reference rollout under the patchgym task", async () => {
  const out = makeRunDir("perm-rollout");
  try {
    const result = await runLauncher(["rollout", "--tasks", "py-median-even", "--out", out]);
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

/**
 * The argv of the `main.ts` that `launch.ts` (process `launcher`) starts as its child, read from
 * /proc/PID/cmdline while it runs (through `sh`: Deno reads /proc only with --allow-all); null
 * when it was never seen before `done` settled.
 */
async function childArgv(launcher: number, done: Promise<unknown>): Promise<string[] | null> {
  const script = `for c in $(cat /proc/$1/task/*/children 2>/dev/null); do
  if tr '\\0' '\\n' < /proc/$c/cmdline 2>/dev/null | grep -q '/main[.]ts$'; then
    exec tr '\\0' '\\n' < /proc/$c/cmdline
  fi
done
exit 1`;
  let finished = false;
  done.finally(() => finished = true);
  while (!finished) {
    const out = await new Deno.Command("sh", {
      args: ["-c", script, "sh", String(launcher)],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (out.success) return new TextDecoder().decode(out.stdout).split("\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

// Issue 26 item 8: with `--allow-run=sh` a compromised orchestrator could start any program, so
// Deno's flags bounded nothing. A real run's main.ts may run only the compiled launcher.
Deno.test("launch.ts runs a rollout's main.ts with --allow-run naming no shell or interpreter", async () => {
  const launcher = await buildLauncher();
  if (!launcher.path) {
    console.warn(`skipped: no compiled launcher (${launcher.reason})`);
    return;
  }
  const out = makeRunDir("perm-flags");
  try {
    const argv = launcherArgv(["rollout", "--tasks", "py-median-even", "--out", out]);
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ROOT,
      clearEnv: true,
      env: childEnv(),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    const flags = await childArgv(child.pid, output);
    const { code, stderr } = await output;
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    assert.ok(flags, "main.ts was never seen running");
    const run = flags.filter((f) => f.startsWith("--allow-run"));
    assert.deepEqual(run, [`--allow-run=${launcher.path}`]);
    // The programs folder launch.ts built: main.ts may read (to check) its cache folder, no more.
    const programs = (await buildProgramFolder(programEntries([Deno.execPath()]))).folder;
    if (programs) {
      const read = flags.find((f) => f.startsWith("--allow-read="))!.split("=")[1].split(",");
      assert.ok(read.includes(dirname(programs.folder)), read.join(","));
      assert.ok(!read.some((r) => r === dirname(dirname(programs.folder))));
    }
    for (const program of run[0].slice("--allow-run=".length).split(",")) {
      assert.ok(program.startsWith("/"), `"${program}" is resolved on PATH`);
      const name = program.slice(program.lastIndexOf("/") + 1);
      assert.doesNotMatch(
        name,
        /^(sh|bash|dash|zsh|ksh|busybox|env|python\d*(\.\d+)?|perl|node|deno)$/,
      );
    }
  } finally {
    removeRunDir(out);
  }
});

const PROBE = `
const [dir, port] = Deno.args;
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
const local = (p: string) => async () => (await fetch("http://127.0.0.1:" + p + "/", { signal: AbortSignal.timeout(5000) })).body?.cancel();
const outcomes = {
  read_repo_config: await attempt(() => Deno.readTextFileSync("deno.json")),
  read_etc: await attempt(() => Deno.readTextFileSync("/etc/hostname")),
  write_outside: await attempt(() => Deno.writeTextFileSync("/tmp/patchgym-outside.txt", "x")),
  write_tasks: await attempt(() => Deno.writeTextFileSync("tasks/patchgym-probe.txt", "x")),
  run_ls: await attempt(() => new Deno.Command("ls").outputSync()),
  env_path: await attempt(() => Deno.env.get("PATH")),
  net_remote: await attempt(async () => (await fetch("http://example.com", { signal: AbortSignal.timeout(5000) })).body?.cancel()),
  net_other_port: await attempt(local(String(Number(port) + 1)), { refusedIsAllowed: true }),
  read_tasks: await attempt(() => Deno.readTextFileSync("tasks/py-median-even/task.json")),
  write_out: await attempt(() => Deno.writeTextFileSync(dir + "/written.txt", "x")),
  env_home: await attempt(() => Deno.env.get("HOME")),
  net_endpoint: await attempt(local(port), { refusedIsAllowed: true }),
  run_python3: await attempt(() => new Deno.Command("python3", { args: ["-c", "pass"] }).outputSync()),
  run_sh: await attempt(() => new Deno.Command("sh", { args: ["-c", "true"] }).outputSync()),
};
console.log(JSON.stringify(outcomes));
`;

/** Run the probe under `flags` in the repository root; the out folder is `dir`. */
async function probe(flags: readonly string[], dir: string, port: number) {
  writeFileSync(join(ROOT, dir, "probe.ts"), PROBE);
  const result = await runArgv([
    Deno.execPath(),
    "run",
    ...flags,
    join(ROOT, dir, "probe.ts"),
    dir,
    String(port),
  ]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

const DENIED = {
  read_repo_config: "denied",
  read_etc: "denied",
  write_outside: "denied",
  write_tasks: "denied",
  run_ls: "denied",
  // Children start through the sh launcher only (it joins the sandbox's cgroups first).
  run_python3: "denied",
  env_path: "denied",
  net_remote: "denied",
};

Deno.test("planPermissions() confines a rollout to what its command line names", async () => {
  const dir = makeRunDir("perm-probe");
  try {
    const port = 9;
    const plan = planPermissions(
      ["rollout", "--out", dir, "--base-url", `http://127.0.0.1:${port}/v1`, "--model", "m"],
      { cwd: ROOT, env: {}, bundledTasks: join(ROOT, "tasks") },
    );
    // The probe reads its own file from the out folder, which the plan grants.
    const outcomes = await probe(permissionFlags(plan), dir, port);
    assert.deepEqual(outcomes, {
      ...DENIED,
      net_other_port: "denied",
      // Controls: the probe can tell allowed from denied.
      read_tasks: "allowed",
      write_out: "allowed",
      env_home: "allowed",
      run_sh: "allowed",
      net_endpoint: "allowed",
    });
  } finally {
    removeRunDir(dir);
    rmSync("/tmp/patchgym-outside.txt", { force: true });
    rmSync(join(ROOT, "tasks/patchgym-probe.txt"), { force: true });
  }
});

Deno.test("permissionFlags() with the compiled launcher runs neither sh nor python3", async () => {
  const launcher = await buildLauncher();
  if (!launcher.path) {
    console.warn(`skipped: no compiled launcher (${launcher.reason})`);
    return;
  }
  const dir = makeRunDir("perm-launcher");
  try {
    const plan = planPermissions(["rollout", "--out", dir], {
      cwd: ROOT,
      env: {},
      bundledTasks: join(ROOT, "tasks"),
    });
    const outcomes = await probe(permissionFlags(plan, { launcher: launcher.path }), dir, 9);
    assert.equal(outcomes.run_sh, "denied");
    assert.equal(outcomes.run_python3, "denied");
    assert.equal(outcomes.run_ls, "denied");
    assert.equal(outcomes.write_out, "allowed");
  } finally {
    removeRunDir(dir);
  }
});

Deno.test("BINARY_FLAGS confine the compiled binary to tasks, runs, the work root and localhost", async () => {
  const dir = makeRunDir("perm-binary");
  try {
    const outcomes = await probe(BINARY_FLAGS, dir, 9);
    assert.deepEqual(outcomes, {
      ...DENIED,
      net_other_port: "allowed",
      read_tasks: "allowed",
      write_out: "allowed",
      env_home: "allowed",
      run_sh: "allowed",
      net_endpoint: "allowed",
    });
  } finally {
    removeRunDir(dir);
    rmSync("/tmp/patchgym-outside.txt", { force: true });
    rmSync(join(ROOT, "tasks/patchgym-probe.txt"), { force: true });
  }
});

function assertScoped(flags: readonly string[]): void {
  assert.ok(!flags.includes("-A"), "-A");
  assert.ok(!flags.some((arg) => arg.startsWith("--allow-all")), "--allow-all");
  for (const arg of flags.filter((a) => a.startsWith("--allow-"))) {
    assert.ok(arg.includes("="), `"${arg}" grants everything; give it a list`);
    assert.ok(!/^--allow-(ffi|import)/.test(arg), `"${arg}" is not needed by patchgym`);
    // Of the system calls Deno guards, only a thread's own priority (a pool worker's) and who
    // this process is (the workspace root's check).
    if (arg.startsWith("--allow-sys")) assert.equal(arg, "--allow-sys=setPriority,uid,gid");
  }
  assert.ok(flags.includes("--no-prompt"));
}

Deno.test("permissionFlags() grants only lists, and no net when no endpoint is named", () => {
  const flags = permissionFlags(planPermissions(["rollout"], CONTEXT));
  assertScoped(flags);
  assertScoped(BINARY_FLAGS);
  assert.ok(!flags.some((f) => f.startsWith("--allow-net")));
  assert.ok(flags.includes("--allow-run=sh"));
});

Deno.test("the patchgym task runs only the launcher, which cannot write or connect", () => {
  const task = patchgymTask();
  assert.equal(task[task.length - 1], "launch.ts");
  const flags = taskFlags();
  assert.ok(flags.includes("--no-prompt"));
  assert.ok(!flags.some((f) => /^--allow-(write|net|ffi|all)|^-A$/.test(f)), flags.join(" "));
  assert.ok(flags.some((f) => f.startsWith("--allow-env=")), "env by name only");
  // Who it runs as, and nothing else of the system: the default workspace root is per user.
  assert.deepEqual(flags.filter((f) => f.startsWith("--allow-sys")), ["--allow-sys=uid,gid"]);
});

Deno.test("launch.ts and main.ts take the user, and so the default workspace root, from one source", async () => {
  // The task's flags once let launch.ts learn its uid only from `id -u` on PATH: without it, it
  // planned /tmp/patchgym while main.ts (Deno.uid()) used /tmp/patchgym-UID, and was refused its
  // own root.
  const dir = await Deno.makeTempDir({ prefix: "patchgym-uid-probe-" });
  const module = (path: string) => JSON.stringify(new URL(path, `file://${ROOT}/`).href);
  const script = join(dir, "probe.ts");
  writeFileSync(
    script,
    `import { ownId } from ${module("src/own_id.ts")};
import { defaultWorkRoot } from ${module("src/agent/environment.ts")};
console.log(JSON.stringify([ownId("u"), defaultWorkRoot()]));
`,
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--config", join(ROOT, "deno.json"), ...taskFlags(), script],
      clearEnv: true,
      env: { PATH: "/nonexistent" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [
      Deno.uid(),
      defaultWorkRoot(Deno.uid()),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The plan's paths relative to CONTEXT.cwd where they are under it, for readable assertions. */
function short(plan: PermissionPlan) {
  const rel = (p: string) => p.startsWith(`${CONTEXT.cwd}/`) ? p.slice(CONTEXT.cwd.length + 1) : p;
  return { read: plan.read.map(rel), write: plan.write.map(rel), net: plan.net };
}

// Issue 14: README commands were refused because the flags named only tasks/, runs/ and /tmp.
Deno.test("planPermissions() grants exactly the files, folders and hosts a command names", () => {
  const tasks = ["/opt/patchgym/tasks", "tasks"];
  // The spawner thread's modules (src/sandbox/) are read by every command that runs sandboxes.
  const system = [...SYSTEM_READ, "/tmp/.cache/patchgym/env", ...SPAWNER_MODULE_READS];
  assert.deepEqual(
    short(
      planPermissions([
        "export",
        "--format",
        "verl",
        "runs/r/trajectories.jsonl",
        "--out",
        "batch.jsonl",
      ], CONTEXT),
    ),
    { read: ["runs/r/trajectories.jsonl"], write: ["batch.jsonl"], net: [] },
  );
  assert.deepEqual(
    short(planPermissions(["export", "--format", "sft", "in.jsonl", "--out", "-"], CONTEXT)),
    { read: ["in.jsonl"], write: [], net: [] },
  );
  assert.deepEqual(
    short(planPermissions(["score", "--task", "t", "--patch", "my.patch"], CONTEXT)),
    {
      read: [...tasks, defaultWorkRoot(), LEASE_DIR, ...system, "my.patch"],
      write: [defaultWorkRoot(), LEASE_DIR],
      net: [],
    },
  );
  assert.deepEqual(
    short(planPermissions(["import", "swebench", "recs.jsonl", "--out", "tasks"], CONTEXT)),
    { read: ["recs.jsonl", "tasks"], write: ["tasks"], net: [] },
  );
  assert.deepEqual(
    short(
      planPermissions([
        "rollout",
        "--tasks-dir=/elsewhere/tasks",
        "--work-dir",
        "/scratch",
        "--base-url",
        "https://api.example.com/v1",
        "--out",
        "/data/run1",
      ], CONTEXT),
    ),
    {
      read: [
        "/elsewhere/tasks",
        "tasks",
        "/scratch",
        LEASE_DIR,
        ...system,
        "/data/run1",
        ...POOL_MODULE_READS,
      ],
      write: ["/scratch", LEASE_DIR, "/data/run1"],
      net: ["api.example.com"],
    },
  );
  assert.deepEqual(
    short(
      planPermissions(["rollout"], {
        ...CONTEXT,
        env: { PATCHGYM_BASE_URL: "http://10.0.0.5:8000/v1" },
      }),
    ).net,
    ["10.0.0.5:8000"],
  );
  assert.deepEqual(short(planPermissions(["show", "runs/r"], CONTEXT)).write, []);
  const serve = short(
    planPermissions(["serve", "--http", "127.0.0.1:8000", "--out", "t"], CONTEXT),
  );
  assert.deepEqual([serve.net, serve.write], [["127.0.0.1:8000"], [
    defaultWorkRoot(),
    LEASE_DIR,
    "t",
  ]]);
  assert.deepEqual(short(planPermissions(["serve", "--http=localhost:0"], CONTEXT)).net, [
    "localhost",
  ]);
  assert.deepEqual(short(planPermissions(["tasks"], CONTEXT)), { read: tasks, write: [], net: [] });
  // env build: the task, tasks folder or repository and the cache, read and written.
  const env = short(planPermissions(["env", "build", "tasks/t", "--env-cache", "/c"], CONTEXT));
  assert.deepEqual(env.write, ["tasks/t", "/c"]);
  assert.deepEqual(env.net, []);
  // npm builds Node projects' environments: granted to env build only.
  if (existsSync("/usr/bin/npm")) {
    const run = planPermissions(["env", "build", "tasks/t"], CONTEXT).run ?? [];
    assert.ok(run.includes("/usr/bin/npm"), JSON.stringify(run));
    const rollout = planPermissions(["rollout", "--tasks", "x"], CONTEXT);
    assert.ok(!(rollout.run ?? []).some((p) => p.endsWith("/npm")));
  }
  // mine: the clone read, the tasks written, the scratch root and the cache.
  const mine = short(planPermissions(["mine", "repo", "--out", "mined"], CONTEXT));
  assert.ok(mine.read.includes("repo") && !mine.write.includes("repo"));
  assert.deepEqual(mine.write, [defaultWorkRoot(), LEASE_DIR, "mined", "/tmp/.cache/patchgym/env"]);
});

Deno.test("planPermissions() grants each user's own default workspace root, and --work-dir's", () => {
  const root = planPermissions(["rollout"], { ...CONTEXT, uid: 0 });
  assert.equal(root.workRoot, "/tmp/patchgym");
  const user = planPermissions(["rollout"], { ...CONTEXT, uid: 1000 });
  assert.equal(user.workRoot, "/tmp/patchgym-1000");
  assert.ok(user.write.includes("/tmp/patchgym-1000") && user.read.includes("/tmp/patchgym-1000"));
  // Not root's: another user's folder is nothing this one needs.
  assert.ok(!user.write.includes("/tmp/patchgym") && !user.read.includes("/tmp/patchgym"));
  const named = planPermissions(["rollout", "--work-dir", "w"], { ...CONTEXT, uid: 1000 });
  assert.equal(named.workRoot, "/home/u/work/w");
  assert.ok(!named.write.includes("/tmp/patchgym-1000"));
});

Deno.test("planPermissions() --resume grants the run folder and the endpoint saved in run.json", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-perm-resume-" });
  try {
    writeFileSync(
      join(dir, "run.json"),
      JSON.stringify({ policy: { base_url: "http://gpu-box:8000/v1", script: null } }),
    );
    const plan = planPermissions(["rollout", "--resume", dir], CONTEXT);
    assert.deepEqual(plan.net, ["gpu-box:8000"]);
    assert.ok(plan.write.includes(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A value flag the planner does not know would be read as a positional (e.g. an input file).
Deno.test("VALUE_FLAGS lists every flag of every command that takes a value", () => {
  const declared = new Set<string>();
  for (const entry of Deno.readDirSync(join(ROOT, "src/cli"))) {
    const text = readFileSync(join(ROOT, "src/cli", entry.name), "utf8");
    for (const m of text.matchAll(/"?([a-z][a-z-]*)"?: \{ type: "string" \}/g)) declared.add(m[1]);
  }
  assert.ok(declared.size > 20, `${declared.size} flags found`);
  assert.deepEqual(
    [...declared].filter((f) => !(VALUE_FLAGS as readonly string[]).includes(f)),
    [],
  );
});

Deno.test("hostOf() reads host and port of http(s) URLs only", () => {
  assert.equal(hostOf("http://127.0.0.1:8000/v1"), "127.0.0.1:8000");
  assert.equal(hostOf("https://api.openai.com/v1"), "api.openai.com");
  assert.equal(hostOf("127.0.0.1:8000/v1"), null);
  assert.equal(hostOf(undefined), null);
});

/** `deno task --config ROOT/deno.json patchgym ARGS` run from `cwd`, as a user elsewhere would. */
function denoTask(args: string[], cwd: string) {
  return runArgv(
    [Deno.execPath(), "task", "-q", "--config", join(ROOT, "deno.json"), "patchgym", ...args],
    { cwd },
  );
}

// Issue 14: README commands as written, from a folder outside the repository.
Deno.test("the patchgym task runs README commands from another folder, --out - to stdout", async () => {
  const out = makeRunDir("perm-readme");
  const elsewhere = await Deno.makeTempDir({ prefix: "patchgym-elsewhere-" });
  try {
    const rollout = await runPatchgym(["rollout", "--tasks", "py-median-even", "--out", out]);
    assert.equal(rollout.code, 0, rollout.stderr);
    const input = join(ROOT, out, "trajectories.jsonl");
    const exported = await denoTask(
      ["export", "--format", "sft", input, "--out", "batch.jsonl"],
      elsewhere,
    );
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(jsonLines(readFileSync(join(elsewhere, "batch.jsonl"), "utf8")).length, 1);
    const stdout = await denoTask(["export", "--format", "sft", input, "--out", "-"], elsewhere);
    assert.equal(stdout.code, 0, stdout.stderr);
    assert.equal(jsonLines(stdout.stdout).length, 1);
    writeFileSync(
      join(elsewhere, "my.patch"),
      readFileSync(join(ROOT, "tasks/py-median-even/solution.patch")),
    );
    const score = await denoTask(
      ["score", "--task", "py-median-even", "--patch", "my.patch"],
      elsewhere,
    );
    assert.equal(score.code, 0, score.stderr);
    assert.match(score.stdout, /reward 1 \(resolved\)/);
    const tasks = await denoTask(["tasks"], elsewhere);
    assert.equal(tasks.code, 0, tasks.stderr);
    assert.match(tasks.stdout, /\d+ tasks in .*tasks\n/);
  } finally {
    removeRunDir(out);
    await Deno.remove(elsewhere, { recursive: true });
  }
});

Deno.test("planPermissions() grants --queue's Redis host and --ray's Python, nothing more", () => {
  const queued = planPermissions(["rollout", "--queue", "redis://10.0.0.5:6380"], CONTEXT);
  assert.deepEqual(queued.net, ["10.0.0.5:6380"]);
  assert.equal(queued.run, undefined);
  const worker = planPermissions(
    ["worker", "--queue", "redis://queue.internal", "--base-url", "http://gpu:8000/v1"],
    CONTEXT,
  );
  assert.deepEqual(worker.net, ["gpu:8000", "queue.internal:6379"]);
  assert.ok(worker.write.includes(defaultWorkRoot()));
  const ray = planPermissions(
    ["rollout", "--ray", "10.0.0.1:6379", "--ray-python", "/v/py"],
    CONTEXT,
  );
  assert.deepEqual([ray.run, ray.net], [["/v/py"], []]);
  assert.match(permissionFlags(ray).join(" "), /--allow-run=sh,\/v\/py(\s|$)/);
  assert.deepEqual(
    planPermissions(["doctor", "--ray", "h:1"], { ...CONTEXT, env: { PATCHGYM_RAY_PYTHON: "py3" } })
      .run,
    ["py3"],
  );
  assert.equal(redisHostOf("http://x:1"), null);
});
