/**
 * Where the children's CPU goes in one test run: the visible tests of `py-median-even` run bare,
 * through the Python reporter without the sandbox (its code compiled once, and compiled per run as
 * before; observing, as the grader's runs do), forked from a warm interpreter (bare and through the
 * reporter: what a run would cost without the interpreter's start and the framework's import; see
 * `_warm.ts`), `true` through each layer of the sandbox, and the whole `runTests`. Cases alternate
 * round by round, so a loaded machine weighs on each alike; CPU is the children's, from a cgroup v1
 * `cpuacct` group (root on a cgroup v1 machine), each case's median over the rounds.
 *
 * `deno run -A bench/children.ts --rounds 30`
 */
import { concat } from "../src/bytes.ts";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { type IsolationInfo, probeIsolation, Sandbox } from "../src/sandbox/sandbox.ts";
import { compiledReporter, runTests } from "../src/sandbox/test_runner.ts";
import { PYTHON_BOOTSTRAP, reporterInput } from "../src/sandbox/_python_reporter.ts";
import { loadTask } from "../src/task/load.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";
import { CpuMeter } from "./_cpu.ts";
import { WarmInterpreter } from "./_warm.ts";
import { bareTestCommand } from "./_sandbox.ts";
import { resolveChildProgram } from "./_system.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rounds: { type: "string", default: "20" },
      task: { type: "string", default: "py-median-even" },
    },
  });
  const meter = await CpuMeter.open();
  if (meter.unavailable) throw new Error(`Cannot measure the children: ${meter.unavailable}`);
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "patchgym-children-" }));
  try {
    const isolation = await probeIsolation();
    const cases = await makeCases(isolation, loadTask(join(TASKS_DIR, values.task)), root);
    // The unmeasured first round warms caches, the compiled reporter and the launcher.
    const medians = await meter.medianChildMs(cases, Number(values.rounds));
    const median = (name: string) => medians.get(name)!;
    console.log(
      `children's CPU per run, median of ${values.rounds} rounds (${values.task}, isolation ${isolation.level}, ${
        isolation.cgroup ? `cgroup v${isolation.cgroup.version}` : "no cgroup"
      }, ${isolation.hostRoot ? "root" : "not root"}):`,
    );
    for (const [name] of cases) console.log(`  ${median(name).toFixed(2).padStart(7)} ms  ${name}`);
    const m = Object.fromEntries(cases.map(([name]) => [name, median(name)]));
    const parts: [string, number][] = [
      ["the tests bare (interpreter, unittest, the tests)", m[BARE]],
      [
        "the reporter's own work (audit hook, snapshots, checks, signed report)",
        m[REPORTER] - m[BARE],
      ],
      ["compiling the reporter in every run (saved now)", m[REPORTER_SOURCE] - m[REPORTER]],
      [
        "the grader's runs only: the reporter's observation serializer",
        m[REPORTER_OBSERVE] - m[REPORTER],
      ],
      ["launcher and spawn (no jail, no cgroup)", m[PROCESS] - m[TRUE]],
      ["per-run cgroups (make, cap, join, sweep)", m[CGROUP] - m[PROCESS]],
      ["the jail (bwrap: namespaces, mounts, seccomp; the uid drop)", m[JAIL] - m[CGROUP]],
      [
        "the rest of a cold runTests (report folder and its mount, files, reading)",
        m[RUN_TESTS_COLD] - m[REPORTER] - (m[JAIL] - m[TRUE]),
      ],
    ];
    console.log("breakdown of a cold runTests:");
    for (const [name, ms] of parts) console.log(`  ${ms.toFixed(2).padStart(7)} ms  ${name}`);
    for (const name of [RUN_TESTS_COLD, RUN_TESTS]) {
      console.log(
        `  ${m[name].toFixed(2).padStart(7)} ms  ${name}: ${
          (m[name] / m[BARE]).toFixed(2)
        }x the bare tests`,
      );
    }
  } finally {
    for (const server of servers) await server.close();
    await meter.close();
    await Deno.remove(root, { recursive: true });
  }
}

const BARE = "tests bare (python3 -B -m unittest)";
const REPORTER = "tests through the reporter, no sandbox (compiled once)";
const REPORTER_SOURCE = "tests through the reporter, no sandbox (compiled per run)";
const REPORTER_OBSERVE = "tests through the reporter, no sandbox, observing as the grader's runs";
const WARM = "tests forked from a warm interpreter (unittest imported), bare";
const WARM_REPORTER = "tests through the reporter, forked from a warm interpreter, no sandbox";
const TRUE = "true bare";
const PROCESS = "true: sandbox without jail or cgroup";
const CGROUP = "true: sandbox without jail, with cgroups";
const JAIL = "true: full sandbox (bwrap + cgroups)";
const RUN_TESTS = "runTests, full sandbox";
const RUN_TESTS_COLD = "runTests, full sandbox, every run cold (no warm interpreter)";

type Case = [string, () => Promise<void>];

async function makeCases(
  isolation: IsolationInfo,
  task: ReturnType<typeof loadTask>,
  root: string,
): Promise<Case[]> {
  const workspace = createWorkspace(snapshotDir(task.repoDir), { root, prefix: "ws" });
  const files = task.spec.visible_tests;
  const full = new Sandbox({ isolation });
  const cold = new Sandbox({ isolation, warm: false });
  // As root, runs without a jail need the flag a user would pass; children still drop to a uid.
  const unjailed: IsolationInfo = {
    ...isolation,
    level: "process",
    mounts: null,
    seccomp: null,
    unjailedRoot: true,
  };
  const withCgroup = new Sandbox({ isolation: unjailed });
  const plain = new Sandbox({ isolation: { ...unjailed, cgroup: null } });
  const [program, ...args] = bareTestCommand(task, workspace.dir, files);
  const reportDir = Deno.makeTempDirSync({ dir: root, prefix: "report-" });
  const compiled = await compiledReporter(full, "unittest", root);
  if (!compiled) throw new Error("The jail's python3 could not compile the reporter");
  const input = (withCode: boolean, observe = false) =>
    concat(reporterInput("unittest", {
      key: "00".repeat(32),
      report: join(reportDir, "report"),
      repo: workspace.dir,
      targets: files,
      trusted: files.map((f) => join(workspace.dir, f)),
      observe,
    }, withCode ? compiled : null));
  const reporter = (withCode: boolean, observe = false) => async () => {
    await bare(resolveChildProgram("python3"), ["-I", "-B", "-u", "-c", PYTHON_BOOTSTRAP], {
      cwd: workspace.dir,
      stdin: input(withCode, observe),
    });
  };
  const sandboxed = (sandbox: Sandbox) => async () => {
    const result = await sandbox.run({ argv: ["true"], cwd: workspace.dir, timeoutMs: 10_000 });
    if (result.exitCode !== 0) throw new Error(`true failed: ${result.stderr}`);
  };
  // Where the sandbox's warm interpreter can start runs (root, bwrap, the compiled launcher), the
  // full sandbox's must have: a run started cold instead would measure the wrong thing.
  const warmHere = isolation.level === "bwrap" && isolation.users !== null && !!isolation.launcher;
  const runTestsIn = (sandbox: Sandbox, warm: boolean) => async () => {
    const run = await runTests(sandbox, {
      runner: task.spec.runner,
      dir: workspace.dir,
      files,
      timeoutMs: 60_000,
      scratchDir: root,
    });
    if (run.counts.passed === 0) throw new Error(`runTests ran no tests: ${run.result.stderr}`);
    if (run.result.warm !== (warm && warmHere)) {
      throw new Error(`runTests started its run ${run.result.warm ? "warm" : "cold"}`);
    }
  };
  const warm = new WarmInterpreter();
  servers.push(warm);
  const reporterInputFile = join(root, "reporter-input");
  Deno.writeFileSync(reporterInputFile, input(true));
  return [
    [BARE, () => bare(program, args, { cwd: workspace.dir })],
    [WARM, () => warm.unittest(workspace.dir, files)],
    [WARM_REPORTER, () => warm.reporter(workspace.dir, reporterInputFile)],
    [REPORTER, reporter(true)],
    [REPORTER_SOURCE, reporter(false)],
    [REPORTER_OBSERVE, reporter(true, true)],
    [TRUE, () => bare(resolveChildProgram("true"), [], {})],
    [PROCESS, sandboxed(plain)],
    [CGROUP, sandboxed(withCgroup)],
    [JAIL, sandboxed(full)],
    [RUN_TESTS, runTestsIn(full, true)],
    [RUN_TESTS_COLD, runTestsIn(cold, false)],
  ];
}

/** Warm interpreters the cases started, closed at the end. */
const servers: WarmInterpreter[] = [];

/** Run a program bare, stdin given or closed; throws when it fails. */
async function bare(
  program: string,
  args: string[],
  options: { cwd?: string; stdin?: Uint8Array },
): Promise<void> {
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    stdin: options.stdin ? "piped" : "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  if (options.stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(options.stdin);
    await writer.close();
  }
  const out = await child.output();
  if (!out.success) {
    throw new Error(`"${program}" failed: ${new TextDecoder().decode(out.stderr).slice(-500)}`);
  }
}

if (import.meta.main) await main();
