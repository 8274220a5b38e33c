/**
 * How long a rollout takes to stop once interrupted while runs wait for a sandbox slot, and how many
 * runs started after the signal: `--episodes` samples of `py-median-even`, all at once on one
 * thread with `--slots` runs at once, each running one `--command-s` long command and then
 * submitting; the run is stopped (as Ctrl-C does) `--stop-after-ms` after its start. Runs started
 * after the signal are grading runs of episodes that had already submitted (kept) or, without the
 * stop of runs in line, commands of stopped episodes. Run:
 * `deno run -A bench/interrupt.ts [--episodes 64] [--slots 2] [--command-s 0.4] [--stop-after-ms 1500]`
 */
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Environment } from "../src/agent/environment.ts";
import { ScriptedPolicy } from "../src/policy/scripted.ts";
import { runRollout } from "../src/rollout/run.ts";
import { type RunRequest, type RunResult } from "../src/sandbox/sandbox.ts";
import { fakeRunConfig } from "./_fake_model.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      episodes: { type: "string", default: "64" },
      slots: { type: "string", default: "2" },
      "command-s": { type: "string", default: "0.4" },
      "stop-after-ms": { type: "string", default: "1500" },
    },
  });
  const episodes = Number(values.episodes);
  const workRoot = await Deno.makeTempDir({ prefix: "patchgym-interrupt-" });
  const outDir = await Deno.makeTempDir({ prefix: "patchgym-interrupt-out-" });
  try {
    const env = await Environment.open({
      tasksDir: TASKS_DIR,
      workRoot,
      runSlots: Number(values.slots),
    });
    // Counts the runs that started after the signal (from each run's own start).
    let stoppedAt: number | null = null;
    let startedAfter = 0;
    const run = env.sandbox.run.bind(env.sandbox);
    env.sandbox.run = async (request: RunRequest): Promise<RunResult> => {
      const result = await run(request);
      if (stoppedAt !== null && performance.now() - result.durationMs > stoppedAt) startedAfter++;
      return result;
    };
    const stop = new AbortController();
    const started = performance.now();
    const timer = setTimeout(() => {
      stoppedAt = performance.now();
      stop.abort();
    }, Number(values["stop-after-ms"]));
    const command = `import time; time.sleep(${Number(values["command-s"])})`;
    const result = await runRollout({
      environment: env,
      outDir,
      config: fakeRunConfig({
        runId: "interrupt",
        tasks: ["py-median-even"],
        samples: episodes,
        baseUrl: "http://127.0.0.1:9",
        plan: "scripted",
        delayMs: 0,
      }),
      workers: 1,
      concurrency: episodes,
      signal: stop.signal,
      policyFor: () =>
        new ScriptedPolicy([
          {
            calls: [{ name: "run_command", arguments: { argv: ["python3", "-c", command] } }],
            content: null,
          },
          { calls: [{ name: "submit", arguments: {} }], content: null },
        ]),
    });
    clearTimeout(timer);
    const ended = performance.now();
    console.log(
      `${episodes} episodes, ${values.slots} runs at once: interrupted ${result.interrupted}, ${result.ran.length} records written, ${startedAfter} runs started after the signal, stopping took ${
        stoppedAt === null ? "-" : ((ended - stoppedAt) / 1000).toFixed(1)
      } s (the whole run ${((ended - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await Deno.remove(outDir, { recursive: true });
    await Deno.remove(workRoot, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) {
  await main();
  // The sandbox's spawner thread would keep the process for its idle time.
  Deno.exit(0);
}
