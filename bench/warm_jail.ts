/**
 * A feasibility measurement for the warm jailed interpreter (docs/benchmarks.md, "Ninth round"),
 * root only: one run of `py-median-even`'s visible tests in a fresh bwrap jail (the namespaces
 * patchgym's jail makes as root), two ways, cases alternating round by round:
 *
 * - fresh: bwrap runs `python3 -B -m unittest` in the jail, as every run does now;
 * - warm: bwrap runs a holder in the jail, and a `python3` outside it that imported unittest once
 *   forks a child that enters the holder's namespaces (`setns`: IPC, UTS, network, cgroup, PID with
 *   one more fork, mount), drops to a sandbox uid with no capabilities and `no_new_privs`, and runs
 *   the same tests there.
 *
 * Neither run has the reporter, the seccomp filter, the per-run cgroups or rlimits: the figure is
 * what the interpreter's start costs beside the jail's. Children's CPU from a cgroup v1 `cpuacct`
 * group (everything both ways started, bwrap included), medians. Nothing here runs code under
 * test: it is not a sandbox.
 *
 * `deno run -A bench/warm_jail.ts --rounds 20`
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { ROOT_JAIL_NAMESPACES } from "../src/sandbox/sandbox.ts";
import { loadTask } from "../src/task/load.ts";
import { snapshotDir, writeSnapshot } from "../src/workspace/snapshot.ts";
import { CpuMeter } from "./_cpu.ts";
import { LineChild } from "./_lines.ts";
import { resolveChildProgram } from "./_system.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

/** The jail's namespaces (patchgym's own as root: no user namespace) and a few mounts. */
const JAIL = [
  ...ROOT_JAIL_NAMESPACES,
  "--ro-bind",
  "/usr",
  "/usr",
  "--symlink",
  "usr/lib",
  "/lib",
  "--symlink",
  "usr/lib64",
  "/lib64",
  "--symlink",
  "usr/bin",
  "/bin",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--tmpfs",
  "/tmp",
];

/**
 * The warm side: per request line (the holder's host pid and the test modules), a child that
 * enters the holder's namespaces, forks into its PID namespace, drops to uid 65600 and runs the
 * tests in /work; it answers the tests' exit status.
 */
const ZYGOTE = String.raw`
import ctypes, os, sys, traceback, unittest
libc = ctypes.CDLL(None, use_errno=True)
KINDS = (("ipc", 0x08000000), ("uts", 0x04000000), ("net", 0x40000000), ("cgroup", 0x02000000),
         ("pid", 0x20000000), ("mnt", 0x00020000))
for line in sys.stdin:
    holder, *modules = line.split()
    pid = os.fork()
    if pid == 0:
        try:
            for kind, flag in KINDS:
                if os.readlink("/proc/self/ns/" + kind) != os.readlink(f"/proc/{holder}/ns/{kind}"):
                    fd = os.open(f"/proc/{holder}/ns/{kind}", os.O_RDONLY)
                    if libc.setns(fd, flag) != 0:
                        os._exit(90)
                    os.close(fd)
            inner = os.fork()
            if inner == 0:
                os.setgroups([]); os.setresgid(65600, 65600, 65600); os.setresuid(65600, 65600, 65600)
                if libc.prctl(38, 1, 0, 0, 0) != 0:
                    os._exit(91)
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, 1); os.dup2(null, 2)
                os.chdir("/work"); sys.path.insert(0, "/work")
                suite = unittest.defaultTestLoader.loadTestsFromNames(modules)
                os._exit(0 if unittest.TextTestRunner(stream=sys.stderr).run(suite).wasSuccessful() else 1)
            os._exit(os.waitstatus_to_exitcode(os.waitpid(inner, 0)[1]))
        except BaseException as error:
            traceback.print_exc()
            os._exit(92)
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rounds: { type: "string", default: "20" },
      task: { type: "string", default: "py-median-even" },
    },
  });
  if (Deno.uid() !== 0) throw new Error("Entering a jail's namespaces from outside needs root");
  const meter = await CpuMeter.open();
  if (meter.unavailable) throw new Error(`Cannot measure the children: ${meter.unavailable}`);
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "patchgym-warm-jail-" }));
  const python = resolveChildProgram("python3");
  const zygote = new LineChild(python, ["-I", "-B", "-c", ZYGOTE]);
  try {
    const task = loadTask(join(TASKS_DIR, values.task));
    const repo = join(root, "repo");
    Deno.mkdirSync(repo);
    writeSnapshot(snapshotDir(task.repoDir), repo);
    // The tests must pass as the sandbox uid: the copy is readable to all, as a workspace is to it.
    await run("chmod", ["-R", "a+rX", root]);
    const modules = task.spec.visible_tests.map((f) => f.replace(/\.py$/, "").replaceAll("/", "."));
    const jail = [...JAIL, "--bind", repo, "/work", "--chdir", "/work"];
    const cases: [string, () => Promise<void>][] = [
      ["fresh interpreter, fresh jail (as every run now)", async () => {
        // The tests fail on the unfixed repository; what counts is that they ran.
        await run("bwrap", [...jail, "--", python, "-B", "-m", "unittest", ...modules], [0, 1]);
      }],
      ["warm interpreter entering a fresh jail", async () => {
        const info = join(root, "info");
        const holder = new Deno.Command("sh", {
          args: [
            "-c",
            'exec bwrap "$@" 3>"$0"',
            info,
            ...jail,
            "--info-fd",
            "3",
            "--",
            "sleep",
            "60",
          ],
        }).spawn();
        try {
          const pid = await holderPid(info);
          await zygote.send([pid, ...modules].join(" "));
          const status = await zygote.read();
          if (status !== "0" && status !== "1") throw new Error(`The warm run failed: ${status}`);
        } finally {
          holder.kill("SIGKILL");
          await holder.status;
          await Deno.remove(info).catch(() => {});
        }
      }],
    ];
    const medians = await meter.medianChildMs(cases, Number(values.rounds));
    console.log(`children's CPU per run, median of ${values.rounds} rounds (${values.task}):`);
    for (const [name, ms] of medians) console.log(`  ${ms.toFixed(2).padStart(7)} ms  ${name}`);
  } finally {
    await zygote.close();
    await Deno.remove(root, { recursive: true });
    await meter.close();
  }
}

/**
 * The jail's init's host pid, from bwrap's --info-fd file, once the holder runs `sleep` under it:
 * bwrap writes the file before its child has built the jail's file system, which is then half made.
 */
async function holderPid(info: string): Promise<string> {
  for (let tries = 0; tries < 1000; tries++) {
    try {
      // bwrap's child is the jail's init; the program is its child once the jail is built.
      const pid = String(JSON.parse(Deno.readTextFileSync(info))["child-pid"]);
      const children = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`).trim();
      const program = children.split(" ")[0];
      if (program && Deno.readTextFileSync(`/proc/${program}/comm`).trim() === "sleep") return pid;
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error("bwrap's child did not start its program");
}

async function run(program: string, args: string[], ok = [0]): Promise<void> {
  const out = await new Deno.Command(program, { args, stdout: "null", stderr: "piped" }).output();
  if (!ok.includes(out.code)) {
    throw new Error(`${program} failed: ${new TextDecoder().decode(out.stderr).slice(-400)}`);
  }
}

if (import.meta.main) await main();
