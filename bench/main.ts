/**
 * `deno task bench`: every figure next to a baseline measured in the same run, written to
 * `bench/results.json` and `bench/results.md` and printed as a table. Sections: workspace
 * creation, tool calls, the sandbox, end-to-end rollouts and whole graded episodes (with a leak
 * check) and grading. `--only=1,4` runs a subset and `--quick` fewer episode batches (the result
 * files are then not written).
 */
import { fileURLToPath } from "node:url";
import type { BenchContext } from "./_context.ts";
import { benchEndToEnd } from "./_e2e.ts";
import { benchGrading } from "./_grading.ts";
import { renderTable, type Row, writeResults } from "./_report.ts";
import { benchSandbox } from "./_sandbox.ts";
import { benchTools } from "./_tools.ts";
import { benchWorkspace } from "./_workspace.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

async function main(args: string[]): Promise<void> {
  const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",");
  const quick = args.includes("--quick");
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
    if (wanted("4")) rows.push(...await benchEndToEnd(ctx, { quick }));
    if (wanted("5")) rows.push(...await benchGrading(ctx));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const wallS = (performance.now() - started) / 1000;
  if (only || quick) {
    console.log(renderTable(rows));
    console.log(`Total ${wallS.toFixed(1)} s (--only or --quick: results not written)`);
    return;
  }
  const markdown = await writeResults(BENCH_DIR, rows, {
    started_at: startedAt.toISOString(),
    wall_s: Math.round(wallS * 10) / 10,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
    cpus: navigator.hardwareConcurrency,
    isolation,
    work_root: root,
  });
  console.log(markdown);
  console.log(`Wrote ${BENCH_DIR}results.json and ${BENCH_DIR}results.md`);
}

if (import.meta.main) await main(Deno.args);
