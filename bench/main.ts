/**
 * `deno task bench`: every figure next to a baseline measured in the same run, printed as a table
 * and written to `runs/bench/<time>/results.json` and `results.md` (ignored by git). Sections:
 * workspace creation, tool calls, the sandbox, end-to-end rollouts and whole graded episodes on
 * 1, 2, 4 and all cores (with a leak check) and grading. Flags: `--fast` fewer and smaller
 * batches (a few minutes), `--only=1,4` a subset, `--out DIR` another results folder, and
 * `--update-results` also rewrites the checked-in `bench/results.json` and `results.md` (only
 * from a whole run, not `--fast` or `--only`).
 */
import { fileURLToPath } from "node:url";
import type { BenchContext } from "./_context.ts";
import { benchEndToEnd } from "./_e2e.ts";
import { benchGrading } from "./_grading.ts";
import { type Row, writeResults } from "./_report.ts";
import { benchSandbox } from "./_sandbox.ts";
import { benchTools } from "./_tools.ts";
import { benchWorkspace } from "./_workspace.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));
const RUNS_DIR = fileURLToPath(new URL("../runs/", import.meta.url));

async function main(args: string[]): Promise<void> {
  const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
  const fast = args.includes("--fast") || args.includes("--quick");
  const update = args.includes("--update-results");
  if (update && (fast || only)) {
    throw new Error("--update-results needs a whole run: drop --fast and --only");
  }
  const outArg = args.find((a) => a.startsWith("--out="))?.slice("--out=".length);
  const wanted = (section: string) => !only || only.includes(section);
  const startedAt = new Date();
  const started = performance.now();
  const root = await Deno.makeTempDir({ prefix: "patchgym-bench-" });
  const ctx: BenchContext = {
    root,
    tasksDir: TASKS_DIR,
    log: (message) =>
      console.error(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${message}`),
  };
  const rows: Row[] = [];
  let isolation = "unknown";
  try {
    if (wanted("1")) rows.push(...await benchWorkspace(ctx));
    if (wanted("2")) rows.push(...await benchTools(ctx));
    if (wanted("3")) {
      const sandbox = await benchSandbox(ctx);
      rows.push(...sandbox.rows);
      isolation = `${sandbox.isolation.level}${sandbox.isolation.rlimits ? " + rlimits" : ""}`;
    }
    if (wanted("4")) rows.push(...await benchEndToEnd(ctx, { fast }));
    if (wanted("5")) rows.push(...await benchGrading(ctx));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const wallS = (performance.now() - started) / 1000;
  const info = {
    started_at: startedAt.toISOString(),
    wall_s: Math.round(wallS * 10) / 10,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
    cpus: navigator.hardwareConcurrency,
    isolation,
    work_root: root,
    mode: fast ? "fast" : "full",
    ...(only ? { only: only.join(",") } : {}),
  };
  const outDir = outArg ??
    `${RUNS_DIR}bench/${startedAt.toISOString().replace(/[:.]/g, "-")}${fast ? "-fast" : ""}`;
  Deno.mkdirSync(outDir, { recursive: true });
  const markdown = await writeResults(outDir, rows, info, { format: false });
  console.log(markdown);
  console.log(`Total ${wallS.toFixed(1)} s; wrote ${outDir}/results.json and results.md`);
  if (update) {
    await writeResults(BENCH_DIR, rows, info);
    console.log(`Updated ${BENCH_DIR}results.json and ${BENCH_DIR}results.md`);
  }
}

if (import.meta.main) await main(Deno.args);
