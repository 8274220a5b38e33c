/** `show`: print episodes of a run turn by turn, with the grade and the failing tests' output. */
import { patchgymCommand } from "../hint.ts";
import { UsageError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import type { TrajectoryRecord } from "../trajectory/record.ts";
import { outcomeOf } from "../trajectory/digest.ts";
import { parseFlags } from "./_args.ts";
import { readRunFolder } from "./_run_folder.ts";

const HELP = `patchgym show: look at the episodes of a run

Usage: patchgym show RUN [--episode ID | --task ID] [--failed] [--full]

  RUN            a run folder (runs/run-...) or its trajectories.jsonl
  --episode ID   one episode: its full id, or TASK/SAMPLE (e.g. py-median-even/0)
  --task ID      every episode of one task
  --failed       only episodes that did not resolve their task
  --full         do not shorten long model text, tool output or diffs

Without --episode or --task, lists the episodes (with --failed, only the failed ones).
An episode prints turn by turn: what the model said, the tool call and its result, then the
grade with each failing test and its output, and the final diff.
`;

/** Lines kept of each long block unless --full: head and tail. */
const BLOCK_LINES = { head: 14, tail: 6 };
const DIFF_LINES = { head: 60, tail: 10 };
const LINE_CHARS = 240;

/** Run the `show` command. */
export function showCommand(args: string[]): Promise<number> {
  return new Promise((done) => done(runShow(args)));
}

function runShow(args: string[]): number {
  const { values, positionals } = parseFlags("show", args, {
    episode: { type: "string" },
    task: { type: "string" },
    failed: { type: "boolean" },
    full: { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      `show: expected one run folder, got ${positionals.length}; run "${
        patchgymCommand("show --help")
      }"`,
    );
  }
  if (values.episode && values.task) {
    throw new UsageError("show: give --episode or --task, not both");
  }
  const run = readRunFolder("show", positionals[0]);
  let records = [...run.records].sort((a, b) =>
    a.task_id.localeCompare(b.task_id) || a.sample - b.sample
  );
  if (values.episode) {
    const id = values.episode;
    const found = records.find((r) => r.episode_id === id || `${r.task_id}/${r.sample}` === id);
    if (!found) {
      throw new UsageError(
        `show: no episode "${id}" in "${run.file}"${
          didYouMean(id, records.flatMap((r) => [r.episode_id, `${r.task_id}/${r.sample}`]))
        }; run "${patchgymCommand(`show ${positionals[0]}`)}" to list them`,
      );
    }
    records = [found];
  } else if (values.task) {
    const id = values.task;
    const tasks = [...new Set(records.map((r) => r.task_id))];
    if (!tasks.includes(id)) {
      throw new UsageError(
        `show: no task "${id}" in "${run.file}"${didYouMean(id, tasks)}; run "patchgym show ${
          positionals[0]
        }" to list the episodes`,
      );
    }
    records = records.filter((r) => r.task_id === id);
  }
  if (values.failed) records = records.filter((r) => outcomeOf(r) !== "resolved");
  if (!values.episode && !values.task) {
    console.log(listEpisodes(records, values.failed ?? false));
    return 0;
  }
  if (records.length === 0) {
    console.log("No failed episodes.");
    return 0;
  }
  console.log(records.map((r) => formatEpisode(r, { full: values.full ?? false })).join("\n\n"));
  return 0;
}

/** One line per episode. */
export function listEpisodes(records: TrajectoryRecord[], failedOnly: boolean): string {
  if (records.length === 0) return failedOnly ? "No failed episodes." : "No episodes.";
  const rows = records.map((r) => [
    `${r.task_id}/${r.sample}`,
    outcomeOf(r),
    r.reward ? String(r.reward.total) : "-",
    r.stop_reason,
    String(r.turns.length),
  ]);
  const header = ["episode", "outcome", "reward", "stop", "turns"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [
    line(header),
    ...rows.map(line),
    "",
    `${records.length} episodes; show one with --episode TASK/SAMPLE (or --task ID)`,
  ].join("\n");
}

/** An episode as text: header, turns, grade, diff. */
export function formatEpisode(r: TrajectoryRecord, options: { full: boolean }): string {
  const block = (text: string, limits = BLOCK_LINES) => indent(shorten(text, limits, options.full));
  const out: string[] = [];
  out.push(`== ${r.episode_id}`);
  out.push(
    `task ${r.task_id} (${r.task.language}, ${r.task.difficulty}, ${r.task.kind})   sample ${r.sample}   policy ${r.policy.name}${
      r.policy.model ? ` ${r.policy.model}` : ""
    }`,
  );
  out.push(
    `outcome ${outcomeOf(r)}   reward ${
      r.reward?.total ?? "-"
    }   stop ${r.stop_reason}   turns ${r.turns.length}   time ${
      (r.timings.wall_ms / 1000).toFixed(1)
    } s   tokens ${r.usage.prompt_tokens + r.usage.completion_tokens}`,
  );
  if (r.error) out.push(`error ${r.error.code}: ${r.error.message}`);
  if (r.submission) out.push(`submitted ${r.submission.status}: ${r.submission.summary}`);
  for (const t of r.turns) {
    out.push("", `--- turn ${t.index + 1} of ${r.turns.length}`);
    if (t.model.reasoning) out.push("reasoning:", block(t.model.reasoning));
    if (t.model.content) out.push("model:", block(t.model.content));
    for (const e of t.model.parse_errors) out.push(`parse error: ${oneLine(e)}`);
    if (!t.tool) {
      out.push("no tool call (nudged)");
      continue;
    }
    const args = t.tool.arguments;
    const longArgs = typeof args === "object" && args !== null
      ? Object.entries(args).filter(([, v]) => typeof v === "string" && v.includes("\n"))
      : [];
    const shortArgs = typeof args === "object" && args !== null
      ? Object.fromEntries(Object.entries(args).filter(([k]) => !longArgs.some(([l]) => l === k)))
      : args;
    const inline = JSON.stringify(shortArgs) ?? "";
    out.push(
      `call: ${t.tool.name}${inline === "{}" && longArgs.length ? "" : ` ${oneLine(inline)}`}`,
    );
    for (const [name, value] of longArgs) out.push(`  ${name}:`, block(value as string));
    if (t.dropped_tool_calls) {
      out.push(`(${t.dropped_tool_calls} more calls in the reply, not run)`);
    }
    out.push(
      `result: ${t.tool.ok ? "ok" : `error ${t.tool.code}`}${
        t.tool.truncated ? " (truncated by the tool)" : ""
      }`,
      block(t.tool.output),
    );
  }
  out.push("", "--- grade");
  if (!r.reward) out.push("not graded");
  else {
    const c = r.reward.components;
    out.push(
      `fail_to_pass ${c.fail_to_pass.passed}/${c.fail_to_pass.total}   pass_to_pass ${c.pass_to_pass.passed}/${c.pass_to_pass.total}   patch ${
        c.patch_applied ? "applied" : "did not apply"
      }`,
    );
    if (c.protected_path_edits.length) {
      out.push(`protected paths edited: ${c.protected_path_edits.join(", ")}`);
    }
    if (c.test_report_problem) out.push(`test report problem: ${c.test_report_problem}`);
    for (const [list, tests] of Object.entries(r.reward.tests)) {
      for (const [id, outcome] of Object.entries(tests)) {
        if (outcome !== "passed") out.push(`  ${outcome.padEnd(7)} ${id} (${list})`);
      }
    }
    for (const f of r.reward.failures ?? []) {
      out.push(`output of ${f.id} (${f.outcome}):`, block(f.output));
    }
  }
  const stat = r.diff_stat;
  const files = [...stat.created, ...stat.modified, ...stat.deleted];
  out.push(
    "",
    `--- final diff${files.length ? ` (${files.join(", ")})` : ""}`,
    r.final_diff ? block(r.final_diff, DIFF_LINES) : "  (no change)",
  );
  return out.join("\n");
}

/** Keep the head and tail lines of long text, saying how many lines were left out. */
export function shorten(
  text: string,
  limits: { head: number; tail: number },
  full: boolean,
): string {
  const lines = text.replace(/\n$/, "").split("\n").map((l) =>
    full || l.length <= LINE_CHARS ? l : `${l.slice(0, LINE_CHARS)}... (${l.length} chars)`
  );
  if (full || lines.length <= limits.head + limits.tail + 1) return lines.join("\n");
  return [
    ...lines.slice(0, limits.head),
    `... ${lines.length - limits.head - limits.tail} lines not shown (--full shows everything) ...`,
    ...lines.slice(-limits.tail),
  ].join("\n");
}

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS)}...` : flat;
}
