/**
 * A jail's cost with and without the launcher's `hide` step (root, compiled launcher), while the
 * host's mount table holds the workspaces of other episodes: `--others N` capped tmpfs mounts made
 * the way episodes make theirs (three per episode: workspace, scoring copy, report folder; so 384
 * stands for 128 episodes running). Children's CPU (cgroup v1 `cpuacct`, median) of a jailed
 * `true` and of `runTests` on a task's visible tests, and the latency of `python3 -c pass`
 * sandboxed (p50), each with hide on and off, cases alternating round by round, first with no
 * other mounts, then with N.
 *
 * `deno run -A bench/hide_mounts.ts --rounds 20 --others 384`
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { probeIsolation, Sandbox } from "../src/sandbox/sandbox.ts";
import { jailRound } from "./_sandbox.ts";
import { loadTask } from "../src/task/load.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";
import { CpuMeter } from "./_cpu.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rounds: { type: "string", default: "20" },
      others: { type: "string", default: "384" },
      task: { type: "string", default: "py-median-even" },
    },
  });
  const isolation = await probeIsolation();
  if (!isolation.hideMounts || !isolation.workspaceMounts) {
    throw new Error("No hide step here: it needs root, bwrap and the compiled launcher");
  }
  const meter = await CpuMeter.open(isolation);
  if (meter.unavailable) throw new Error(`Cannot measure the children: ${meter.unavailable}`);
  const root = Deno.realPathSync(await Deno.makeTempDir({ prefix: "patchgym-hide-" }));
  const sandboxes = {
    "hide": new Sandbox({ isolation }),
    "no hide": new Sandbox({ isolation: { ...isolation, hideMounts: false } }),
  };
  const others: string[] = [];
  const capped = sandboxes.hide.workspaceMount(1024 * 1024, 64)!;
  try {
    const task = loadTask(join(TASKS_DIR, values.task));
    const workspace = createWorkspace(snapshotDir(task.repoDir), { root, prefix: "ws" });
    const cpu = new Map<string, number[]>();
    const wall = new Map<string, number[]>();
    const push = (map: Map<string, number[]>, key: string, value: number) =>
      map.set(key, [...(map.get(key) ?? []), value]);
    const round = async (label: string | null) => {
      for (const [name, sandbox] of Object.entries(sandboxes)) {
        const r = await jailRound(meter, sandbox, task, workspace.dir, root);
        if (label) {
          push(cpu, `${label}: true, ${name}`, r.trueCpu);
          push(cpu, `${label}: runTests, ${name}`, r.testsCpu);
          push(wall, `${label}: python3 -c pass, ${name}`, r.pythonWall);
        }
      }
    };
    await round(null);
    for (let i = 0; i < Number(values.rounds); i++) await round("no other mounts");
    for (let i = 0; i < Number(values.others); i++) {
      const dir = join(root, `other-${i}`);
      Deno.mkdirSync(dir, { mode: 0o700 });
      await capped.mount(dir);
      others.push(dir);
    }
    const label = `${values.others} other mounts`;
    for (let i = 0; i < Number(values.rounds); i++) await round(label);
    const median = (samples: number[]) =>
      [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];
    console.log(
      `hide step, ${values.rounds} rounds (${values.task}, load ${
        Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
      }):`,
    );
    for (const [name, samples] of cpu) {
      console.log(`  ${median(samples).toFixed(2).padStart(7)} ms CPU  ${name} (median)`);
    }
    for (const [name, samples] of wall) {
      console.log(`  ${median(samples).toFixed(2).padStart(7)} ms wall ${name} (p50)`);
    }
  } finally {
    for (const dir of others) await capped.unmount(dir);
    await meter.close();
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) await main();
