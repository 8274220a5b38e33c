/** Section 3: the sandbox against bare spawns, and visible test runs through `runTests`. */
import { type IsolationInfo, probeIsolation, Sandbox } from "../src/sandbox/sandbox.ts";
import { runTests } from "../src/sandbox/test_runner.ts";
import { loadTask } from "../src/task/load.ts";
import type { Task } from "../src/task/spec.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";
import { type BenchContext, spawnChecked, subdir } from "./_context.ts";
import { CpuMeter } from "./_cpu.ts";
import { makeRow, type Row, type Target } from "./_report.ts";
import { sampleCases, type SampleOptions, summarize, timedAsync, type Trial } from "./_stats.ts";
import { resolveChildProgram } from "./_system.ts";
import { twoFileTree } from "./_trees.ts";

const SPAWN: SampleOptions = { warmup: 3, min: 20, max: 200, budgetMs: 4000 };
const TESTS: SampleOptions = { warmup: 2, min: 10, max: 40, budgetMs: 4000 };
const COMMANDS = [["true"], ["python3", "-c", "pass"]];
/** Test runs: one TypeScript task, one Python unittest task, one node_test task, targets in ms. */
const TEST_TASKS: [string, number][] = [
  ["ts-cart-discounts", 120],
  ["py-median-even", 80],
  ["js-semver-caret-zero", 150],
];

/** Measure the sandbox per isolation level and the visible test runs. */
export async function benchSandbox(
  ctx: BenchContext,
): Promise<{ rows: Row[]; isolation: IsolationInfo }> {
  const isolation = await probeIsolation();
  const rlimits = isolation.rlimits;
  // The full jail, then without the jail, then without cgroups: each row shows what one layer costs.
  const sandboxes: [string, Sandbox][] = [];
  // An episode's commands after its first: each one's jail is made once the last one ended
  // (`RunRequest.ahead`; with bwrap and the compiled launcher). The bench waits for it
  // between runs, untimed, as a model's answer would take longer.
  const ahead = isolation.level === "bwrap" && !!isolation.launcher
    ? new Sandbox({ isolation })
    : null;
  const aheadLevel = "bwrap + cgroup, jail made ahead";
  if (isolation.level === "bwrap") {
    sandboxes.push(["bwrap + cgroup", new Sandbox({ isolation, ahead: false })]);
    if (ahead) sandboxes.push([aheadLevel, ahead]);
    // The same jail started through the sh fallback launcher, for the compiled launcher's gain.
    if (isolation.launcher) {
      const sh = { ...isolation, launcher: null, launcherReason: "bench" };
      sandboxes.push(["bwrap + cgroup, sh launcher", new Sandbox({ isolation: sh })]);
    }
  }
  // The rows without a jail run the bench's own commands only; as root they need the flag a user
  // would pass (--unsafe-root-without-jail), and children still drop to a sandbox uid.
  const unjailed: IsolationInfo = {
    ...isolation,
    level: "process",
    mounts: null,
    seccomp: null,
    unjailedRoot: true,
  };
  if (isolation.cgroup) sandboxes.push(["process + cgroup", new Sandbox({ isolation: unjailed })]);
  sandboxes.push(["process", new Sandbox({ isolation: { ...unjailed, cgroup: null } })]);
  const rows: Row[] = [];
  const section = "3 sandbox";
  const workspace = createWorkspace(twoFileTree(), { root: subdir(ctx, "sandbox") });
  const cwd = workspace.dir;
  const owner = workspace;
  const skipped = isolation.level === "bwrap" ? "" : `; bwrap rows skipped: ${isolation.reason}`;
  const cgroup = isolation.cgroup ? `cgroup v${isolation.cgroup.version}` : "no cgroup";
  ctx.log(`sandbox: isolation ${isolation.level}, rlimits ${rlimits}, ${cgroup}${skipped}`);

  for (const argv of COMMANDS) {
    const label = argv.join(" ");
    const program = resolveChildProgram(argv[0]);
    const bare: Trial = () => timedAsync(() => spawnChecked(program, argv.slice(1), cwd));
    let unready = 0;
    const viaSandbox = sandboxes.map(([, sandbox]): Trial => async () => {
      const made = sandbox === ahead;
      const ms = await timedAsync(async () => {
        const result = await sandbox.run({
          argv,
          cwd,
          timeoutMs: 10_000,
          ...(made ? { ahead: owner } : {}),
        });
        if (result.exitCode !== 0) {
          throw new Error(`Sandbox failed on "${label}": ${result.stderr}`);
        }
        if (made && !result.ahead) unready++;
      });
      if (made) await sandbox.aheadReady();
      return ms;
    });
    const [bareMs, ...runnerMs] = await sampleCases([bare, ...viaSandbox], SPAWN);
    const bareMedian = summarize(bareMs).median;
    rows.push(makeRow({
      section,
      figure: `${label}: bare Deno.Command`,
      unit: "ms",
      values: bareMs,
      note: argv[0] === "python3"
        ? `Bare spawns run ${program}, the executable the sandbox finds on its fixed PATH (the caller's PATH may hold a slower shim)`
        : undefined,
    }));
    if (argv[0] === "python3") {
      // The command latency the issue names: the full sandbox against the same command bare.
      // The target is `run_command`'s: in a jail made ahead where there is one (an episode's
      // first command, and every command elsewhere, gets one made when it comes).
      const jails = sandboxes.map(([level], i) => [level, i] as const).filter(([level], i) =>
        i === 0 || level.startsWith("bwrap")
      );
      const targetLevel = ahead ? aheadLevel : sandboxes[0][0];
      for (const [level, i] of jails) {
        const targeted = level === targetLevel;
        for (const [q, limit] of [[0.5, 3], [0.99, 10]] as const) {
          const name = q === 0.5 ? "p50" : "p99";
          rows.push(makeRow({
            section,
            figure: `${label}: sandboxed - bare, ${name} (${level})`,
            unit: "ms",
            summary: {
              median: quantile(runnerMs[i], q) - quantile(bareMs, q),
              p95: null,
              n: runnerMs[i].length,
            },
            baseline: { name: `bare ${name}`, value: quantile(bareMs, q) },
            ...(targeted
              ? { target: { text: `<= ${limit} ms`, metric: "median", op: "<=", value: limit } }
              : {}),
            ...(level === aheadLevel
              ? {
                note: `run_command after an episode's first; ${unready} of ${
                  runnerMs[i].length
                } timed runs (and warm-ups) found no jail made ahead`,
              }
              : {}),
          }));
        }
      }
    }
    sandboxes.forEach(([level], i) => {
      const runnerMedian = summarize(runnerMs[i]).median;
      rows.push(
        makeRow({
          section,
          figure: `${label}: Sandbox.run (${level})`,
          unit: "ms",
          values: runnerMs[i],
          baseline: { name: "bare", value: bareMedian },
        }),
        makeRow({
          section,
          figure: `${label}: Sandbox overhead (${level})`,
          unit: "ms",
          summary: { median: runnerMedian - bareMedian, p95: null, n: runnerMs[i].length },
          baseline: { name: "bare", value: bareMedian },
          target: { text: "< 12 ms", metric: "median", op: "<", value: 12 },
        }),
      );
    });
  }

  if (ahead) {
    ctx.log("sandbox: what jails made ahead cost, per command");
    rows.push(...await benchAheadCost(ctx, ahead, sandboxes[0][1]));
  }

  if (isolation.level === "bwrap") {
    ctx.log("sandbox: a dependency environment bound at node_modules");
    rows.push(await benchEnvironmentMount(ctx, sandboxes[0][1], cwd));
  }

  if (isolation.cgroup?.version === 1 && isolation.cgroup.memory) {
    ctx.log("sandbox: launcher set-up, before and after");
    rows.push(...await benchLauncherSetup(isolation.cgroup.pids, isolation.cgroup.memory));
  }

  const [level, sandbox] = sandboxes[0];
  for (const [id, limit] of TEST_TASKS) {
    const task = loadTask(`${ctx.tasksDir}/${id}`);
    ctx.log(`sandbox: runTests ${id} (${level})`);
    rows.push(await benchTestRun(ctx, task, sandbox, level, limit));
  }
  // Its jail made ahead ends with its workspace, which the bench's folder takes.
  await ahead?.endAhead();
  return { rows, isolation };
}

/** Commands per episode in {@linkcode benchAheadCost}. */
const COMMANDS_PER_EPISODE = 4;

/**
 * What jails made ahead cost: an episode's `COMMANDS_PER_EPISODE` commands (`python3 -c pass`) in
 * a workspace of its own, then the workspace's end, which ends the jail made for a fifth command
 * that never came. CPU per command, children's and this process's, against the same commands
 * with each jail made when it comes; medians over alternating rounds.
 */
async function benchAheadCost(ctx: BenchContext, ahead: Sandbox, onDemand: Sandbox) {
  const cpu = await CpuMeter.open(ahead.isolation, onDemand.isolation);
  try {
    if (cpu.unavailable) {
      ctx.log(`sandbox: jails made ahead's CPU skipped: ${cpu.unavailable}`);
      return [];
    }
    const episode = (sandbox: Sandbox) => async () => {
      const workspace = createWorkspace(twoFileTree(), { root: subdir(ctx, "ahead") });
      try {
        for (let i = 0; i < COMMANDS_PER_EPISODE; i++) {
          const run = await sandbox.run({
            argv: ["python3", "-c", "pass"],
            cwd: workspace.dir,
            timeoutMs: 10_000,
            ahead: workspace,
          });
          if (run.exitCode !== 0) throw new Error(`python3 failed: ${run.stderr}`);
          await sandbox.aheadReady();
        }
      } finally {
        await workspace.remove();
      }
    };
    const cases = [episode(ahead), episode(onDemand)];
    const samples = cases.map(() => ({ child: [] as number[], self: [] as number[] }));
    for (const body of cases) await body();
    for (let round = 0; round < 10; round++) {
      for (const [i, body] of cases.entries()) {
        const { selfMs, childMs } = await cpu.measure(body);
        samples[i].child.push(childMs! / COMMANDS_PER_EPISODE);
        samples[i].self.push(selfMs / COMMANDS_PER_EPISODE);
      }
    }
    const note =
      `${COMMANDS_PER_EPISODE} commands in a workspace, then its end (which ends the unused jail made for a next command); per command`;
    return (["child", "self"] as const).map((kind) =>
      makeRow({
        section: "3 sandbox",
        figure: `python3 -c pass: ${
          kind === "child" ? "children's" : "orchestrator"
        } CPU per command (bwrap + cgroup, jail made ahead)`,
        unit: "ms",
        values: samples[0][kind],
        baseline: {
          name: "each jail made when its run comes",
          value: summarize(samples[1][kind]).median,
        },
        note,
      })
    );
  } finally {
    await cpu.close();
  }
}

/**
 * What a built environment costs a run: `true` in the jail with a folder bound read-only at the
 * workspace's `node_modules` (as an npm environment is), against the same run without it. A warm
 * cache adds nothing else per episode.
 */
async function benchEnvironmentMount(ctx: BenchContext, sandbox: Sandbox, cwd: string) {
  const env = subdir(ctx, "env");
  const source = `${env}/node_modules`;
  Deno.mkdirSync(`${source}/some-package`, { recursive: true });
  Deno.writeTextFileSync(`${source}/some-package/index.js`, "export const x = 1;\n");
  Deno.mkdirSync(`${cwd}/node_modules`, { recursive: true });
  const run = (binds: { source: string; dest: string }[]): Trial => () =>
    timedAsync(async () => {
      const result = await sandbox.run({ argv: ["true"], cwd, timeoutMs: 10_000, binds });
      if (result.exitCode !== 0) throw new Error(`Sandbox failed: ${result.stderr}`);
    });
  const [plain, mounted] = await sampleCases(
    [run([]), run([{ source, dest: `${cwd}/node_modules` }])],
    SPAWN,
  );
  const base = summarize(plain).median;
  return makeRow({
    section: "3 sandbox",
    figure: "true: Sandbox.run with an environment bound at node_modules (bwrap + cgroup)",
    unit: "ms",
    values: mounted,
    baseline: { name: "without the bind", value: base },
    target: { text: "< 2 ms more", metric: "median", op: "<", value: base + 2 },
  });
}

async function benchTestRun(
  ctx: BenchContext,
  task: Task,
  sandbox: Sandbox,
  level: string,
  limitMs: number,
): Promise<Row> {
  const workspace = createWorkspace(snapshotDir(task.repoDir), {
    root: subdir(ctx, "tests"),
    prefix: task.spec.id,
  });
  try {
    const { spec } = task;
    const viaSandbox: Trial = () =>
      timedAsync(async () => {
        const run = await runTests(sandbox, {
          runner: spec.runner,
          dir: workspace.dir,
          files: spec.visible_tests,
          timeoutMs: 60_000,
        });
        if (!run.reportFound || run.counts.passed === 0) {
          throw new Error(
            `runTests on ${spec.id} ran no tests: ${run.result.stderr.slice(0, 500)}`,
          );
        }
      });
    const [program, ...args] = bareTestCommand(task, workspace.dir, spec.visible_tests);
    const bare: Trial = () => timedAsync(() => spawnChecked(program, args, workspace.dir));
    const [runnerMs, bareMs] = await sampleCases([viaSandbox, bare], TESTS);
    const target: Target = { text: `< ${limitMs} ms`, metric: "median", op: "<", value: limitMs };
    return makeRow({
      section: "3 sandbox",
      figure: `runTests visible tests, ${spec.id} (${spec.runner}, ${level})`,
      unit: "ms",
      values: runnerMs,
      baseline: {
        name: `bare ${BARE_NAMES[spec.runner]}`,
        value: summarize(bareMs).median,
      },
      target,
    });
  } finally {
    await workspace.remove();
  }
}

const BARE_NAMES = {
  deno_test: "deno test",
  unittest: "python3 -m unittest",
  pytest: "python3 -m pytest",
  node_test: "node --test",
  jest: "jest --runInBand",
};

/** What {@linkcode jailRound} measured, ms. */
export interface JailRound {
  /** Children's CPU of a jailed `true`. */
  trueCpu: number;
  /** Wall time of a sandboxed `python3 -c pass`. */
  pythonWall: number;
  /** Children's CPU of `runTests` on the task's visible tests. */
  testsCpu: number;
}

/**
 * One round of the jail benches (`jail_binds.ts`, `hide_mounts.ts`) on `sandbox`, in workspace
 * `dir` of `task`: a jailed `true`, a `python3 -c pass` and the visible tests, each checked.
 */
export async function jailRound(
  meter: CpuMeter,
  sandbox: Sandbox,
  task: Task,
  dir: string,
  scratchDir: string,
): Promise<JailRound> {
  const jailed = await meter.measure(async () => {
    const run = await sandbox.run({ argv: ["true"], cwd: dir, timeoutMs: 10_000 });
    if (run.exitCode !== 0) throw new Error(`true failed: ${run.stderr}`);
  });
  const started = performance.now();
  const python = await sandbox.run({
    argv: ["python3", "-c", "pass"],
    cwd: dir,
    timeoutMs: 10_000,
  });
  const pythonWall = performance.now() - started;
  if (python.exitCode !== 0) throw new Error(`python3 failed: ${python.stderr}`);
  const tests = await meter.measure(async () => {
    const run = await runTests(sandbox, {
      runner: task.spec.runner,
      dir,
      files: task.spec.visible_tests,
      timeoutMs: 60_000,
      scratchDir,
    });
    if (run.counts.passed === 0) throw new Error(`no tests ran: ${run.result.stderr}`);
  });
  return { trueCpu: jailed.childMs!, pythonWall, testsCpu: tests.childMs! };
}

/**
 * Test `files` of `task` run bare: the runner's own command line without the sandbox or the
 * report.
 */
export function bareTestCommand(task: Task, dir: string, files: string[]): string[] {
  const { spec } = task;
  switch (spec.runner) {
    case "deno_test":
      return [
        resolveChildProgram("deno"),
        "test",
        "--no-config",
        "--no-lock",
        "--no-check",
        "--cached-only",
        "--no-prompt",
        `--allow-read=${dir}`,
        `--allow-write=${dir}`,
        ...files,
      ];
    case "unittest":
      return [
        resolveChildProgram("python3"),
        "-B",
        "-m",
        "unittest",
        ...files.map((f) => f.replace(/\.py$/, "").replaceAll("/", ".")),
      ];
    case "pytest":
      return [
        resolveChildProgram("python3"),
        "-B",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        ...files,
      ];
    case "node_test":
      return [resolveChildProgram("node"), "--test", ...files];
    case "jest":
      return [
        resolveChildProgram("node"),
        `${dir}/node_modules/jest/bin/jest.js`,
        "--runInBand",
        "--no-watchman",
        ...files,
      ];
  }
}

/**
 * The launcher's set-up as it was and as it is, in the same run: joining the two cgroup v1
 * hierarchies through `cgroup.procs` and then exec'ing `prlimit`, against joining through `tasks`
 * and setting the limits with the shell's `ulimit`. Each runs `true` in fresh cgroups.
 */
async function benchLauncherSetup(pidsRoot: string, memoryRoot: string): Promise<Row[]> {
  const setups = {
    before:
      'echo $$ > "$1/cgroup.procs" && echo $$ > "$2/cgroup.procs" && exec prlimit --cpu=20 --fsize=67108864 --nofile=1024 --nproc=256 --as=4294967296 -- true',
    after:
      'echo 0 > "$1/tasks" && echo 0 > "$2/tasks" && ulimit -t 20 && ulimit -f 131072 && ulimit -n 1024 && { ulimit -u 256 2>/dev/null || ulimit -p 256; } && ulimit -v 4194304 && exec true',
  };
  const trial = (script: string): Trial => async () => {
    // Not "patchgym-*": other patchgym processes remove such empty cgroups of unknown owners.
    const name = `pgbench-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const dirs = [`${pidsRoot}/${name}`, `${memoryRoot}/${name}`];
    await spawnChecked("mkdir", dirs);
    try {
      return await timedAsync(() => spawnChecked("sh", ["-c", script, "sh", ...dirs]));
    } finally {
      await spawnChecked("rmdir", dirs);
    }
  };
  const [before, after] = await sampleCases([trial(setups.before), trial(setups.after)], SPAWN);
  const section = "3 sandbox";
  return [
    makeRow({
      section,
      figure: "launcher set-up as it was: join via cgroup.procs x2, exec prlimit",
      unit: "ms",
      values: before,
      note:
        "Both rows spawn sh in fresh pids and memory cgroups (made and removed outside the timing) and end in `true`",
    }),
    makeRow({
      section,
      figure: "launcher set-up now: join via tasks x2, ulimit",
      unit: "ms",
      values: after,
      baseline: { name: "as it was", value: summarize(before).median },
    }),
  ];
}

/** Nearest-rank quantile `q` of `values` (not empty). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
