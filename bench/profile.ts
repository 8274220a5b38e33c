/**
 * Profile the orchestrator on whole graded episodes: `episodes` samples of `py-median-even`
 * (`concurrency` at a time) driven by the fake model, in this process, and this process's CPU per
 * episode printed at the end. Run under V8's profiler to see where that CPU goes:
 * `deno run -A --cpu-prof --cpu-prof-dir=runs/prof bench/profile.ts --episodes 64 --concurrency 16`
 * then `deno run -A bench/profile.ts --summarize runs/prof/<file>.cpuprofile`.
 * `--phases` (best with `--concurrency 1`, so phases do not overlap) also prints this process's CPU
 * per episode in each phase: sandboxed runs, the workspace mounts, model requests, grading.
 * `--threads` splits the CPU per episode by thread (Linux): the episodes' thread, the spawner
 * thread, V8's helpers (garbage collection, compilers) and Deno's blocking pool (asynchronous file
 * calls), with each kind's wake-ups (a wake-up costs 30-100 us of CPU on a VM).
 * It also prints how late a 1 ms timer fired on this event loop while the episodes ran (stalls;
 * `bench/_stalls.ts`; `--sandbox-runs N` sets how many sandboxed runs start at once, as the CLI
 * flag does; `--stall-causes` splits the late firings into this thread's own work and its
 * wait for a core, from `/proc/thread-self/schedstat`); `--niceness N` runs the children at that niceness (default 10).
 * `--cold-python` starts every Python run in its jail (no warm interpreter), to compare the two.
 * `--children` also prints the children's CPU per episode (everything the episodes started, jailed
 * or not, from a cgroup v1 cpuacct group; see `bench/_cpu.ts`).
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Environment } from "../src/agent/environment.ts";
import { OpenAIPolicy } from "../src/policy/openai.ts";
import { runSample } from "../src/rollout/sample.ts";
import { Sandbox } from "../src/sandbox/sandbox.ts";
import { type WorkspaceMount } from "../src/workspace/workspace.ts";
import { CpuMeter } from "./_cpu.ts";
import { CAUSE_OVER_MS, StallMonitor } from "./_stalls.ts";
import { threadCpu } from "./_threads.ts";
import { fakeModelName, solvingCalls, startFakeModel } from "./_fake_model.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      episodes: { type: "string", default: "32" },
      concurrency: { type: "string", default: "8" },
      latency: { type: "string", default: "0" },
      summarize: { type: "string" },
      top: { type: "string", default: "40" },
      "work-root": { type: "string", default: "/tmp" },
      phases: { type: "boolean", default: false },
      threads: { type: "boolean", default: false },
      children: { type: "boolean", default: false },
      niceness: { type: "string" },
      "stall-causes": { type: "boolean", default: false },
      "sandbox-runs": { type: "string" },
      "cold-python": { type: "boolean", default: false },
    },
  });
  if (values.summarize) {
    summarizeProfile(values.summarize, Number(values.top));
    return;
  }
  const phases = values.phases ? measurePhases() : null;
  const episodes = Number(values.episodes);
  const concurrency = Number(values.concurrency);
  const workRoot = await Deno.makeTempDir({
    prefix: "patchgym-profile-",
    dir: values["work-root"],
  });
  const env = await Environment.open({
    tasksDir: TASKS_DIR,
    workRoot,
    ...(values.niceness ? { sandboxLimits: { niceness: Number(values.niceness) } } : {}),
    ...(values["sandbox-runs"] ? { runSlots: Number(values["sandbox-runs"]) } : {}),
    coldPython: values["cold-python"],
  });
  const task = env.task("py-median-even");
  const patch = readFileSync(task.solutionPath!, "utf8");
  const model = await startFakeModel({ solve: solvingCalls(patch) });
  // After the model's process started, which stays out of the children's count.
  const meter = values.children ? await CpuMeter.open(env.isolation) : null;
  try {
    const run = async (n: number, tag: string) => {
      let next = 0;
      const worker = async () => {
        while (next < n) {
          const sample = next++;
          const policy = new OpenAIPolicy({
            baseUrl: model.baseUrl,
            model: fakeModelName("solve", Number(values.latency)),
            maxRetries: 0,
            fetch: model.fetch,
          });
          const record = await runSample(env, task, policy, {
            run_id: "profile",
            episode_id: `${tag}-${sample}`,
            task_id: task.spec.id,
            sample,
            group_id: tag,
          });
          if (!record.reward?.resolved) throw new Error(`not resolved: ${record.stop_reason}`);
          JSON.stringify(record);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    };
    await run(Math.min(4, episodes), "warmup");
    phases?.clear();
    const threadsBefore = values.threads ? threadCpu() : null;
    const before = process.cpuUsage();
    const switchesBefore = process.resourceUsage();
    const groupBefore = await meter?.read();
    const started = performance.now();
    const stalls = new StallMonitor({ causes: values["stall-causes"] });
    await run(episodes, "measured");
    const late = stalls.stop();
    const groupAfter = await meter?.read();
    const cpu = process.cpuUsage(before);
    const switches = process.resourceUsage();
    const wall = performance.now() - started;
    const threads = threadsBefore ? threadCpu() : null;
    console.log(
      `${episodes} episodes, C=${concurrency}: orchestrator CPU ${
        ((cpu.user + cpu.system) / 1000 / episodes).toFixed(2)
      } ms/episode (user ${(cpu.user / 1000 / episodes).toFixed(2)}, system ${
        (cpu.system / 1000 / episodes).toFixed(2)
      }), wall ${(wall / episodes).toFixed(1)} ms/episode`,
    );
    console.log(
      `event loop stalls: max ${late.max.toFixed(1)} ms, p99 ${late.p99.toFixed(1)} ms`,
    );
    // Every thread of this process: a voluntary switch is a thread going to sleep (and waking).
    console.log(
      `context switches per episode: voluntary ${
        ((switches.voluntaryContextSwitches - switchesBefore.voluntaryContextSwitches) / episodes)
          .toFixed(1)
      }, involuntary ${
        ((switches.involuntaryContextSwitches - switchesBefore.involuntaryContextSwitches) /
          episodes).toFixed(1)
      }`,
    );
    if (late.causes) {
      const c = late.causes;
      console.log(
        `  ${c.count} over ${CAUSE_OVER_MS} ms, ${
          c.lateMs.toFixed(0)
        } ms late in all: this thread ran ${c.ranMs.toFixed(0)} ms of it and waited for a core ${
          c.waitedMs.toFixed(0)
        } ms`,
      );
    }
    if (meter) {
      const group = (groupAfter?.groupMs ?? NaN) - (groupBefore?.groupMs ?? NaN);
      const self = (groupAfter?.selfMs ?? NaN) - (groupBefore?.selfMs ?? NaN);
      console.log(
        meter.unavailable
          ? `children's CPU: not measured (${meter.unavailable})`
          : `children's CPU ${((group - self) / episodes).toFixed(2)} ms/episode`,
      );
    }
    if (threads && threadsBefore) {
      let counted = 0;
      for (const [kind, now] of threads) {
        const was = threadsBefore.get(kind) ?? { ms: 0, wakeUps: 0 };
        const used = now.ms - was.ms;
        counted += used;
        console.log(
          `${(used / episodes).toFixed(2).padStart(8)} ms/episode, ${
            ((now.wakeUps - was.wakeUps) / episodes).toFixed(1).padStart(6)
          } wake-ups/episode  ${kind}`,
        );
      }
      // Threads that ended during the batch (the blocking pool's idle ones) take their CPU along.
      const rest = Math.max(0, (cpu.user + cpu.system) / 1000 - counted);
      console.log(`${(rest / episodes).toFixed(2).padStart(8)} ms/episode  threads that ended`);
    }
    if (phases) {
      for (const [phase, us] of phases) {
        console.log(`${(us / 1000 / episodes).toFixed(2).padStart(8)} ms/episode  ${phase}`);
      }
    }
  } finally {
    await model.close();
    await meter?.close();
    await Deno.remove(workRoot, { recursive: true });
  }
}

/**
 * Wrap the methods each phase runs in, adding this process's CPU (every thread) to the phase.
 * A phase inside another (a sandboxed run inside grading) counts in both.
 */
function measurePhases(): Map<string, number> {
  const cpu = new Map<string, number>();
  const wrap = (target: object, method: string, phase: string) => {
    const holder = target as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = holder[method];
    holder[method] = async function (this: unknown, ...args: unknown[]) {
      const before = process.cpuUsage();
      try {
        return await original.apply(this, args);
      } finally {
        const used = process.cpuUsage(before);
        cpu.set(phase, (cpu.get(phase) ?? 0) + used.user + used.system);
      }
    };
  };
  wrap(
    Sandbox.prototype,
    "run",
    "sandboxed runs (run_tests' and grading's): launcher, sweep, pipes",
  );
  wrap(Environment.prototype, "grade", "env.grade: scoring copy, canaries, its run, judging");
  wrap(OpenAIPolicy.prototype, "next", "model requests (4 turns): HTTP and JSON");
  const workspaceMount = Sandbox.prototype.workspaceMount;
  Sandbox.prototype.workspaceMount = function (this: Sandbox, bytes: number, entries: number) {
    const mount: WorkspaceMount | null = workspaceMount.call(this, bytes, entries);
    if (mount) {
      wrap(mount, "mount", "workspace mounts (tmpfs, 2 per episode)");
      wrap(mount, "unmount", "workspace unmounts (2 per episode)");
    }
    return mount;
  };
  return cpu;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time by function and by file of a `.cpuprofile`, largest first. */
function summarizeProfile(path: string, top: number): void {
  const profile = JSON.parse(readFileSync(path, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + profile.timeDeltas[i]));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const short = url.replace(/^.*\/(perf|node_modules|deno)\//, "");
    const key = `${functionName || "(anon)"} ${short}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    file.set(short || "(native)", (file.get(short || "(native)") ?? 0) + us);
    // Inclusive time per src/ function: each sample counts once for every distinct frame above it.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.includes("/src/")) continue;
      const k = `${frame.functionName || "(anon)"} ${frame.url.replace(/^.*\/src\//, "src/")}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(
        `${(us / 1000).toFixed(1).padStart(9)} ms ${
          (100 * us / total).toFixed(1).padStart(5)
        }%  ${k}`,
      );
    }
  };
  console.log(`total sampled ${(total / 1000).toFixed(1)} ms`);
  print("self time by function", fn);
  print("self time by file", file);
  print("inclusive time by src/ function", inclusive);
}

if (import.meta.main) await main();
