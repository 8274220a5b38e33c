/**
 * `deno task bench`: every figure next to a baseline measured in the same run, written to
 * `runs/bench-<time>/results.json` and `results.md` (an ignored folder; `--out DIR` names another)
 * and printed as a table; `--update-results` also rewrites the checked-in `bench/results.json` and
 * `bench/results.md`. Sections: workspace creation, tool calls, the sandbox, end-to-end rollouts
 * and whole graded episodes (with a leak check), grading, and the grader's false-positive rate on
 * the fairness corpus next to its catch rate on the attack corpus. `--only=1,4` runs a subset and
 * `--quick` (or `--fast`) fewer and smaller batches, a few minutes in all (neither may update the
 * checked-in results).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { BenchContext } from "./_context.ts";
import { benchEndToEnd } from "./_e2e.ts";
import { benchGrader } from "./_grader.ts";
import { benchGrading } from "./_grading.ts";
import { type Row, writeResults } from "./_report.ts";
import { benchSandbox } from "./_sandbox.ts";
import { benchTools } from "./_tools.ts";
import { benchWorkspace } from "./_workspace.ts";

const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));
const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

/** What a bench command line asks for. */
export interface BenchArgs {
  only?: string[];
  quick: boolean;
  out?: string;
  updateResults: boolean;
}

/** Parse `deno task bench` arguments strictly: an unknown flag or a bad combination throws. */
export function parseBenchArgs(args: string[]): BenchArgs {
  const { values } = parseArgs({
    args,
    options: {
      only: { type: "string" },
      quick: { type: "boolean" },
      fast: { type: "boolean" },
      out: { type: "string" },
      "update-results": { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  });
  const parsed: BenchArgs = {
    only: values.only?.split(",").map((s) => s.trim()).filter(Boolean),
    quick: (values.quick || values.fast) ?? false,
    out: values.out,
    updateResults: values["update-results"] ?? false,
  };
  const sections = ["1", "2", "3", "4", "5", "6"];
  const unknown = parsed.only?.filter((s) => !sections.includes(s)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `--only: expected sections from 1 to ${sections.length}, got "${unknown.join(",")}"`,
    );
  }
  if (parsed.updateResults && (parsed.only || parsed.quick)) {
    throw new Error("--update-results needs a full run: drop --only and --quick");
  }
  return parsed;
}

async function main(args: string[]): Promise<void> {
  const { only, quick, out, updateResults } = parseBenchArgs(args);
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
    if (wanted("4")) rows.push(...await benchEndToEnd(ctx, { fast: quick }));
    if (wanted("5")) rows.push(...await benchGrading(ctx));
    if (wanted("6")) rows.push(...await benchGrader(ctx, { quick }));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
  const wallS = (performance.now() - started) / 1000;
  const stamp = startedAt.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  const outDir = out ?? join(Deno.cwd(), "runs", `bench-${stamp}`);
  mkdirSync(outDir, { recursive: true });
  const info = {
    started_at: startedAt.toISOString(),
    wall_s: Math.round(wallS * 10) / 10,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
    cpus: navigator.hardwareConcurrency,
    isolation,
    work_root: root,
    partial: only || quick
      ? [...(only ? [`--only=${only.join(",")}`] : []), ...(quick ? ["--quick"] : [])]
      : undefined,
  };
  const markdown = await writeResults(outDir, rows, info, { format: false });
  console.log(markdown);
  console.log(`Total ${wallS.toFixed(1)} s; wrote ${join(outDir, "results.json")} and results.md`);
  if (updateResults) {
    await writeResults(BENCH_DIR, rows, info, { format: true });
    console.log(`Updated ${BENCH_DIR}results.json and ${BENCH_DIR}results.md`);
  }
}

if (import.meta.main) {
  try {
    parseBenchArgs(Deno.args);
  } catch (error) {
    console.error(
      `bench: ${
        (error as Error).message
      }; flags: --only=1,2,3,4,5,6 --quick (--fast) --out DIR --update-results`,
    );
    Deno.exit(2);
  }
  await main(Deno.args);
}
