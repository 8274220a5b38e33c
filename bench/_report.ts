/** Result rows of the benchmark suite: building them, checking targets, and writing JSON and Markdown. */
import { summarize, type Summary } from "./_stats.ts";

/** Format name and version of `bench/results.json`. */
export const RESULTS_FORMAT = "patchgym.bench.v1";

/** Which number of a row a target is checked against. */
export type TargetMetric = "median" | "ratio" | "delta";

/** A target: `metric op value`, e.g. median < 0.5 (ms), ratio <= 2 or >= 0.9, delta within +/- 2. */
export interface Target {
  /** As a person would say it, e.g. "< 0.5 ms". */
  text: string;
  metric: TargetMetric;
  op: "<" | "<=" | ">=" | "==";
  value: number;
}

/** The baseline a figure is measured next to, in the same run. */
export interface Baseline {
  name: string;
  /** In the row's unit; null when it could not be measured (the row says why in `note`). */
  value: number | null;
}

/** One figure of the benchmark. */
export interface Row {
  section: string;
  figure: string;
  unit: string;
  median: number | null;
  p95: number | null;
  n: number;
  baseline: Baseline | null;
  /** median / baseline value. */
  ratio: number | null;
  target: Target | null;
  /** Whether the target is met; null for figures without a target. */
  met: boolean | null;
  note?: string;
}

/** What a row is made from. */
export interface RowInput {
  section: string;
  figure: string;
  unit: string;
  /** Raw sample (summarized here) or an already computed summary. */
  values?: number[];
  summary?: Pick<Summary, "median" | "n"> & { p95: number | null };
  baseline?: Baseline | null;
  target?: Target | null;
  note?: string;
}

/** Build a row: summarize, compute the ratio against the baseline, check the target. */
export function makeRow(input: RowInput): Row {
  const summary = input.summary ??
    (input.values && input.values.length > 0 ? summarize(input.values) : null);
  const median = summary ? summary.median : null;
  const baseline = input.baseline ?? null;
  const ratio = median !== null && baseline?.value ? median / baseline.value : null;
  const target = input.target ?? null;
  const row: Row = {
    section: input.section,
    figure: input.figure,
    unit: input.unit,
    median,
    p95: summary ? summary.p95 : null,
    n: summary ? summary.n : 0,
    baseline,
    ratio,
    target,
    met: null,
  };
  if (target) row.met = checkTarget(row, target);
  if (input.note) row.note = input.note;
  return row;
}

function checkTarget(row: Row, target: Target): boolean | null {
  const actual = target.metric === "median"
    ? row.median
    : target.metric === "ratio"
    ? row.ratio
    : row.median !== null && row.baseline?.value !== null && row.baseline?.value !== undefined
    ? row.median - row.baseline.value
    : null;
  if (actual === null) return false;
  switch (target.op) {
    case "<":
      return actual < target.value;
    case "<=":
      return actual <= target.value;
    case ">=":
      return actual >= target.value;
    case "==":
      return actual === target.value;
  }
}

/** Round for display: 3 significant digits below 100, whole numbers above. */
export function formatNumber(value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "-";
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  if (abs === 0) return "0";
  return value.toPrecision(3);
}

/** The rows as a Markdown table, with notes below it. */
export function renderTable(rows: Row[]): string {
  const header = [
    "section",
    "figure",
    "unit",
    "median",
    "p95",
    "n",
    "baseline",
    "ratio",
    "target",
    "met",
  ];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  const notes: string[] = [];
  for (const row of rows) {
    let figure = row.figure;
    if (row.note) {
      notes.push(row.note);
      figure += ` [${notes.length}]`;
    }
    const baseline = row.baseline
      ? `${row.baseline.name}: ${formatNumber(row.baseline.value)}`
      : "-";
    const met = row.met === null ? "-" : row.met ? "yes" : "**NO**";
    lines.push(
      `| ${
        [
          row.section,
          figure,
          row.unit,
          formatNumber(row.median),
          formatNumber(row.p95),
          String(row.n),
          baseline,
          row.ratio === null ? "-" : `${formatNumber(row.ratio)}x`,
          row.target?.text ?? "-",
          met,
        ].join(" | ")
      } |`,
    );
  }
  if (notes.length > 0) {
    lines.push("", ...notes.map((note, i) => `- [${i + 1}] ${note}`));
  }
  return lines.join("\n");
}

/** Facts about the machine and run, stored with the results. */
export interface RunInfo {
  started_at: string;
  wall_s: number;
  deno: string;
  v8: string;
  os: string;
  cpus: number;
  isolation: string;
  work_root: string;
  /** The flags that made this a partial run (`--only`, `--quick`), if any. */
  partial?: string[];
}

/**
 * Write `results.json` and `results.md` into `dir` and return the Markdown as written; with
 * `format`, through `deno fmt` (so that `deno fmt --check bench/` stays clean for the checked-in
 * copies).
 */
export async function writeResults(
  dir: string,
  rows: Row[],
  info: RunInfo,
  options: { format: boolean },
): Promise<string> {
  const json = { format: RESULTS_FORMAT, run: info, rows };
  await Deno.writeTextFile(`${dir}/results.json`, `${JSON.stringify(json, null, 2)}\n`);
  const met = rows.filter((r) => r.met === true).length;
  const missed = rows.filter((r) => r.met === false);
  const summary = [
    `# patchgym benchmark`,
    "",
    `${info.started_at}, ${
      info.wall_s.toFixed(0)
    } s, Deno ${info.deno} (V8 ${info.v8}), ${info.os}, ${info.cpus} CPUs, isolation ${info.isolation}.`,
    "",
    ...(info.partial ? [`Partial run (${info.partial.join(" ")}).`, ""] : []),
    `Targets met: ${met} of ${met + missed.length}.`,
    ...missed.map((r) => `- missed: ${r.section} / ${r.figure}`),
    "",
  ];
  await Deno.writeTextFile(`${dir}/results.md`, `${summary.join("\n")}\n${renderTable(rows)}\n`);
  if (!options.format) return await Deno.readTextFile(`${dir}/results.md`);
  const fmt = await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", "results.md", "results.json"],
    cwd: dir,
    stdin: "null",
  }).output();
  if (!fmt.success) {
    throw new Error(`Cannot format the results: ${new TextDecoder().decode(fmt.stderr)}`);
  }
  return await Deno.readTextFile(`${dir}/results.md`);
}
