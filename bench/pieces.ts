/**
 * What the pieces of a graded episode cost the orchestrator, by thread: sandboxed runs of `true`
 * and `python3 -c pass` (with and without 130 KB of stdin), a workspace mount and unmount, a
 * workspace made and removed, an episode's last model request (to the fake model of
 * `_fake_model.ts`, its answer at once), a `runTests` of `--task`'s visible and hidden tests on a
 * copy with its fix, an `env.grade` of that fix, and a whole graded episode that solves the task
 * (the fake model's four calls), its record made as JSON. Each piece runs `--calls` times, 4 at a time, after a tenth as many unmeasured; the
 * CPU per call of the caller's thread, the spawner thread and V8's helpers comes from
 * `/proc/self/task` (10 ms ticks: a few hundred calls a piece). Linux, as root with bwrap for the
 * mount (docs/benchmarks.md, "Seventeenth round").
 *
 * `deno run -A bench/pieces.ts --calls 300`
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Environment } from "../src/agent/environment.ts";
import { OpenAIPolicy } from "../src/policy/openai.ts";
import type { PolicyRequest } from "../src/policy/types.ts";
import { runSample } from "../src/rollout/sample.ts";
import { runTests } from "../src/sandbox/test_runner.ts";
import { preparedCopy } from "./_grading.ts";
import { THREAD_KINDS, threadCpu } from "./_threads.ts";
import { fakeModelName, solvingCalls, startFakeModel } from "./_fake_model.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));
const AT_ONCE = 4;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      calls: { type: "string", default: "300" },
      task: { type: "string", default: "py-median-even" },
    },
  });
  const calls = Number(values.calls);
  if (!Number.isInteger(calls) || calls < AT_ONCE) {
    throw new Error(`--calls takes a whole number from ${AT_ONCE}`);
  }
  const workRoot = await Deno.makeTempDir({ prefix: "patchgym-pieces-" });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot });
  const task = env.task(values.task);
  const patch = readFileSync(task.solutionPath!, "utf8");
  const copies = await Promise.all(
    Array.from({ length: AT_ONCE }, () => preparedCopy(env, task, patch)),
  );
  const model = await startFakeModel({ solve: solvingCalls(patch) });
  try {
    const policy = () =>
      new OpenAIPolicy({
        baseUrl: model.baseUrl,
        model: fakeModelName("solve", 0),
        maxRetries: 0,
        fetch: model.fetch,
      });
    const episode = async (call: number, seen?: PolicyRequest[]) => {
      const chosen = policy();
      const next = chosen.next.bind(chosen);
      if (seen) chosen.next = (request) => (seen.push(request), next(request));
      const record = await runSample(env, task, chosen, {
        run_id: "pieces",
        episode_id: `episode-${call}`,
        task_id: task.spec.id,
        sample: call,
        group_id: "pieces",
      });
      if (!record.reward?.resolved) throw new Error(`not resolved: ${record.stop_reason}`);
      return JSON.stringify(record);
    };
    // One episode's requests, to send its last one again and again.
    const requests: PolicyRequest[] = [];
    await episode(-1, requests);
    const lastRequest = requests.at(-1)!;
    const asker = policy();
    const sandbox = env.sandbox;
    const stdin = new Uint8Array(130_000);
    const mount = sandbox.workspaceMount(1 << 26, 10_000);
    const pieces: [string, (slot: number, call: number) => Promise<unknown>][] = [
      [
        "Sandbox.run of true",
        (slot) => sandbox.run({ argv: ["true"], cwd: copies[slot].dir, timeoutMs: 10_000 }),
      ],
      [
        "Sandbox.run of python3 -c pass",
        (slot) =>
          sandbox.run({
            argv: ["python3", "-c", "pass"],
            cwd: copies[slot].dir,
            timeoutMs: 10_000,
          }),
      ],
      ["the same with 130 KB of stdin", (slot) =>
        sandbox.run({
          argv: ["python3", "-c", "import sys; sys.stdin.buffer.read()"],
          cwd: copies[slot].dir,
          timeoutMs: 10_000,
          stdin,
        })],
      ...(mount
        ? [["a workspace mount and unmount", async (_slot: number, call: number) => {
          const dir = `${workRoot}/mount-${call}`;
          Deno.mkdirSync(dir);
          await mount.mount(dir);
          await mount.unmount(dir);
          Deno.removeSync(dir);
        }] as [string, (slot: number, call: number) => Promise<unknown>]]
        : []),
      ["a workspace made and removed", async () => {
        const workspace = env.newWorkspace(task, { background: true });
        await workspace.ready;
        await workspace.remove();
      }],
      ["an episode's last model request", () => asker.next(lastRequest)],
      [`runTests of ${task.spec.id}'s tests`, (slot) =>
        runTests(sandbox, {
          runner: task.spec.runner,
          dir: copies[slot].dir,
          files: [...task.spec.visible_tests, ...task.spec.hidden_tests],
          timeoutMs: 60_000,
          ...copies[slot].testRun,
        })],
      [`env.grade of its fix`, () => env.grade(task, patch)],
      ["a whole graded episode and its record's JSON", (_slot, call) => episode(call)],
    ];
    console.log(`per call, ${AT_ONCE} at a time, ${calls} calls a piece (ms of CPU):`);
    console.log(
      `${"caller".padStart(8)} ${"spawner".padStart(8)} ${"V8".padStart(8)} ${
        "all".padStart(8)
      }  piece`,
    );
    let call = 0;
    for (const [name, piece] of pieces) {
      // Whole rounds of AT_ONCE calls: the calls made, which `--calls` rounds up.
      const batch = async (n: number) => {
        let made = 0;
        for (; made < n; made += AT_ONCE) {
          await Promise.all(Array.from({ length: AT_ONCE }, (_, slot) => piece(slot, call++)));
        }
        return made;
      };
      await batch(Math.max(AT_ONCE, Math.ceil(calls / 10)));
      const before = threadCpu();
      const made = await batch(calls);
      const after = threadCpu();
      const used = (kind: string) =>
        ((after.get(kind)?.ms ?? 0) - (before.get(kind)?.ms ?? 0)) / made;
      const caller = used(THREAD_KINDS.main);
      const spawner = used(THREAD_KINDS.spawner);
      const v8 = used(THREAD_KINDS.v8);
      const all = [...after.keys()].reduce((sum, kind) => sum + used(kind), 0);
      console.log(
        `${[caller, spawner, v8, all].map((ms) => ms.toFixed(2).padStart(8)).join(" ")}  ${name}`,
      );
    }
  } finally {
    await model.close();
    for (const copy of copies) await copy.remove();
    await Deno.remove(workRoot, { recursive: true });
  }
}

if (import.meta.main) {
  await main();
  // The spawner thread would keep the process for its idle time.
  Deno.exit(0);
}
