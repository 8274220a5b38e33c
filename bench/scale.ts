/**
 * Episodes per second of the same batch rollout run locally (`--concurrency N`) and through the
 * Redis queue (`--queue` with N workers of one sample each), N = 1, 2, 4, so the queue's own
 * overhead is a measured ratio. Needs `redis-server`. Run:
 * `deno run -A bench/scale.ts [--tasks N] [--samples K]` (prints a Markdown table).
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { startRedis } from "../tests/_redis.ts";
import {
  childEnv,
  makeRunDir,
  makeWorkRoot,
  patchgymArgv,
  removeRunDir,
  removeWorkRoot,
  ROOT,
} from "../tests/cli/_run.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { tasks: { type: "string", default: "6" }, samples: { type: "string", default: "2" } },
});
const tasks = [...Deno.readDirSync(join(ROOT, "tasks"))].filter((e) => e.name.startsWith("py-"))
  .map((e) => e.name).sort().slice(0, Number(values.tasks));
const samples = Number(values.samples);
const episodes = tasks.length * samples;

function spawn(args: string[]): Deno.ChildProcess {
  const argv = patchgymArgv(args);
  return new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdout: "null",
    stderr: "null",
  }).spawn();
}

async function timed(body: (out: string, work: string) => Promise<void>): Promise<number> {
  const out = makeRunDir("bench-scale");
  const work = makeWorkRoot("bench-scale");
  try {
    const started = performance.now();
    await body(out, work);
    return (performance.now() - started) / 1000;
  } finally {
    removeRunDir(out);
    removeWorkRoot(work);
  }
}

const common = (out: string, work: string) => [
  "rollout",
  ...["--tasks", tasks.join(","), "--samples", String(samples)],
  ...["--out", join(out, "run"), "--work-dir", work],
];

const rows: string[] = [];
const redis = await startRedis();
try {
  for (const n of [1, 2, 4]) {
    const local = await timed(async (out, work) => {
      const { success } = await spawn([...common(out, work), "--concurrency", String(n)]).status;
      if (!success) throw new Error("local rollout failed");
    });
    const queued = await timed(async (out, work) => {
      const name = `bench${crypto.randomUUID().slice(0, 6)}`;
      const flags = ["--queue", redis.url, "--queue-name", name];
      const producer = spawn([...common(out, work), ...flags]);
      const workers = Array.from(
        { length: n },
        () => spawn(["worker", ...flags, "--lease", "5", "--work-dir", work]),
      );
      const { success } = await producer.status;
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all(workers.map((w) => w.status));
      if (!success) throw new Error("queue rollout failed");
    });
    rows.push(
      `| ${n} | ${(episodes / local).toFixed(2)} | ${(episodes / queued).toFixed(2)} | ${
        (local / queued).toFixed(2)
      }x |`,
    );
  }
} finally {
  await redis.stop();
}
console.log(
  `${episodes} reference episodes (${tasks.length} Python tasks x ${samples}), graded; wall time from start to the summary, process start-up included\n`,
);
console.log("| N | local --concurrency N (ep/s) | queue, N workers (ep/s) | queue / local |");
console.log("| - | - | - | - |");
console.log(rows.join("\n"));
