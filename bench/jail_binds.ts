/**
 * The jail as on main (each allowlisted program bound on its own, every library folder bound), with
 * the prepared programs folder (one bind per destination folder), and with the folder and a library
 * folder of links made of links, in the same run: children's CPU of a jailed
 * `true` and of `runTests` on a task's visible tests (cgroup v1 `cpuacct`, median), and the latency
 * of `python3 -c pass` sandboxed minus bare (p50, p99). Cases alternate round by round.
 *
 * `deno run -A bench/jail_binds.ts --rounds 30`
 */
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { probeIsolation, Sandbox } from "../src/sandbox/sandbox.ts";
import { type MountPlan, planMounts } from "../src/sandbox/mounts.ts";
import { jailRound } from "./_sandbox.ts";
import { loadTask } from "../src/task/load.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";
import { CpuMeter } from "./_cpu.ts";
import { resolveChildProgram } from "./_system.ts";

const LINKS = "shared libraries (a folder of links)";
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
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "patchgym-binds-" }));
  try {
    const folder = await probeIsolation();
    if (folder.level !== "bwrap" || !folder.mounts?.programs) {
      throw new Error(`No jail with a programs folder here: ${folder.mounts?.programsReason}`);
    }
    // The same jail as on main: each program bound on its own, a folder of links bound as well.
    const pythonLibs = folder.mounts.mounts.filter((m) => m.why === "python3 library")
      .map((m) => m.source);
    const bindLinks = (plan: MountPlan): MountPlan => {
      const links = plan.mounts.filter((m) => m.why === LINKS);
      const dirs = [...new Set(links.map((m) => dirname(m.dest)))];
      return {
        ...plan,
        mounts: [
          ...dirs.map((dir) => ({
            kind: "ro-bind" as const,
            source: dir,
            dest: dir,
            why: "shared libraries",
          })),
          ...plan.mounts.filter((m) => m.why !== LINKS),
        ],
      };
    };
    const main = bindLinks(planMounts(pythonLibs, { folder: null, reason: "benchmark baseline" }));
    const task = loadTask(join(TASKS_DIR, values.task));
    const workspace = createWorkspace(snapshotDir(task.repoDir), { root, prefix: "ws" });
    const sandboxes = {
      "main (one bind per program)": new Sandbox({ isolation: { ...folder, mounts: main } }),
      "programs folder": new Sandbox({
        isolation: { ...folder, mounts: bindLinks(folder.mounts) },
      }),
      "programs folder + library links": new Sandbox({ isolation: folder }),
    };
    const cpu = new Map<string, number[]>();
    const wall = new Map<string, number[]>();
    const push = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    const python = resolveChildProgram("python3");
    const round = async (record: boolean) => {
      for (const [name, sandbox] of Object.entries(sandboxes)) {
        const r = await jailRound(meter, sandbox, task, workspace.dir, root);
        if (record) {
          push(cpu, `true, ${name}`, r.trueCpu);
          push(cpu, `runTests, ${name}`, r.testsCpu);
          push(wall, name, r.pythonWall);
        }
      }
      const started = performance.now();
      const out = await new Deno.Command(python, { args: ["-c", "pass"], stdout: "null" }).output();
      if (!out.success) throw new Error("bare python3 failed");
      if (record) push(wall, "bare", performance.now() - started);
    };
    await round(false);
    for (let i = 0; i < Number(values.rounds); i++) await round(true);
    const pct = (values: number[], p: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
    };
    console.log(
      `jail binds, ${values.rounds} rounds (${values.task}, ${
        folder.hostRoot ? "root" : "not root"
      }, load ${Deno.loadavg().map((l) => l.toFixed(1)).join(" ")}):`,
    );
    for (const [name, samples] of cpu) {
      console.log(`  ${pct(samples, 0.5).toFixed(2).padStart(7)} ms CPU  ${name} (median)`);
    }
    const bare = wall.get("bare")!;
    for (const name of Object.keys(sandboxes)) {
      const samples = wall.get(name)!;
      console.log(
        `  python3 -c pass, ${name}, minus bare: p50 ${
          (pct(samples, 0.5) - pct(bare, 0.5)).toFixed(1)
        } ms, p99 ${(pct(samples, 0.99) - pct(bare, 0.99)).toFixed(1)} ms (bare p50 ${
          pct(bare, 0.5).toFixed(1)
        }, p99 ${pct(bare, 0.99).toFixed(1)})`,
      );
    }
  } finally {
    await meter.close();
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
