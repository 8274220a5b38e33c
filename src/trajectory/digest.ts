/**
 * What a run keeps of each record once it is written to `trajectories.jsonl`: the part the report
 * shows (long texts cut) and the few figures the summary counts that the report does not show. A
 * record carries its whole conversation with token ids and log-probabilities (tens of KB and up);
 * a run of many thousands of samples that kept every record held them all in memory until its
 * summary was written, and the thread that writes records parsed every record a worker thread sent
 * it. A digest is made where the record is, and travels beside its JSON line.
 */
import type { TrajectoryRecord } from "./record.ts";
import { countLoss } from "./training_view.ts";

/**
 * How a sample ended, as SWE-bench reports list instance ids: `error` (the policy or the
 * environment failed, or grading failed), else `empty_patch` (no change), else `resolved` or
 * `unresolved`.
 */
export type Outcome = "resolved" | "unresolved" | "error" | "empty_patch";

/** How `r` ended (see {@linkcode Outcome}). */
export function outcomeOf(r: TrajectoryRecord): Outcome {
  if (
    r.reward === null || r.stop_reason === "policy_error" || r.stop_reason === "environment_error"
  ) {
    return "error";
  }
  if (r.final_diff.trim() === "") return "empty_patch";
  return r.reward.resolved ? "resolved" : "unresolved";
}

/** Longest text kept per tool output, model reply or test output in the report. */
export const REPORT_TEXT_LIMIT = 8_000;
/** Longest diff kept per episode in the report. */
export const REPORT_DIFF_LIMIT = 100_000;

/** The part of a record the report's viewer shows, long texts cut to bounded size. */
function episodeView(r: TrajectoryRecord) {
  const statement = r.messages.find((m) => m.role === "user")?.content ?? "";
  const reward = r.reward && {
    total: r.reward.total,
    resolved: r.reward.resolved,
    components: {
      fail_to_pass: r.reward.components.fail_to_pass,
      pass_to_pass: r.reward.components.pass_to_pass,
      patch_applied: r.reward.components.patch_applied,
      protected_path_edits: r.reward.components.protected_path_edits,
    },
    report_problem: r.reward.components.test_report_problem ?? null,
    tests: r.reward.tests,
    failures: r.reward.failures?.map((f) => ({ ...f, output: cut(f.output, REPORT_TEXT_LIMIT) })),
  };
  return {
    episode_id: r.episode_id,
    task_id: r.task_id,
    sample: r.sample,
    language: r.task.language,
    difficulty: r.task.difficulty,
    kind: r.task.kind,
    outcome: outcomeOf(r),
    stop_reason: r.stop_reason,
    error: r.error,
    submission: r.submission,
    statement: cut(statement, REPORT_TEXT_LIMIT),
    final_diff: cut(r.final_diff, REPORT_DIFF_LIMIT),
    reward,
    drift: r.training.token_drift,
    tokens: r.training.available,
    usage: r.usage,
    wall_ms: r.timings.wall_ms,
    turns: r.turns.map((t) => ({
      index: t.index,
      content: cut(t.model.content ?? "", REPORT_TEXT_LIMIT),
      reasoning: cut(t.model.reasoning ?? "", REPORT_TEXT_LIMIT),
      parse_errors: t.model.parse_errors,
      dropped: t.dropped_tool_calls,
      tool: t.tool && {
        name: t.tool.name,
        arguments: cut(
          typeof t.tool.arguments === "string"
            ? t.tool.arguments
            : JSON.stringify(t.tool.arguments, null, 2),
          REPORT_TEXT_LIMIT,
        ),
        ok: t.tool.ok,
        code: t.tool.code,
        output: cut(t.tool.output, REPORT_TEXT_LIMIT),
        truncated: t.tool.truncated,
      },
    })),
  };
}

/** `text` cut to `limit` characters keeping head and tail, with a marker saying how much went. */
export function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.7);
  const tail = limit - head;
  return `${text.slice(0, head)}\n[... ${text.length - head - tail} characters cut ...]\n${
    text.slice(text.length - tail)
  }`;
}

/** What the report shows of one episode. */
export type EpisodeView = ReturnType<typeof episodeView>;

/** A record's digest: its view, plus what the summary and the report's title need. */
export interface RecordDigest extends EpisodeView {
  run_id: string;
  policy: { name: string; model: string | null };
  isolation: string;
  /** An impossible sample (`--impossible-rate`), counted apart. */
  impossible: boolean;
  /** The grade's integrity codes (a test run not to be trusted); null when not graded. */
  integrity: string[] | null;
  /** Tokens with loss over the record's token view (0 without one). */
  trainable_tokens: number;
}

/**
 * The digest of `record` (see the module comment), a copy of its own: a text cut from a record's
 * (or any of its texts, which may be a part of a longer one) would otherwise keep the whole text
 * in memory as long as the digest.
 */
export function digestRecord(record: TrajectoryRecord): RecordDigest {
  return structuredClone({
    ...episodeView(record),
    run_id: record.run_id,
    policy: { name: record.policy.name, model: record.policy.model },
    isolation: record.isolation,
    impossible: record.reward?.impossible === true,
    // Records written before integrity codes existed have none.
    integrity: record.reward === null ? null : record.reward.components?.integrity ?? [],
    trainable_tokens: record.training.available
      ? record.training.segments.reduce((n, s) => n + countLoss(s), 0)
      : 0,
  });
}

/** The view part of a digest: what the report embeds, as a record made it. */
export function viewOf(digest: RecordDigest): EpisodeView {
  const {
    run_id: _run,
    policy: _policy,
    isolation: _isolation,
    impossible: _impossible,
    integrity: _integrity,
    trainable_tokens: _tokens,
    ...view
  } = digest;
  return view;
}

/** A finished record as a run's one writer takes it: its JSON line to write, and its digest. */
export interface RecordLine {
  line: string;
  digest: RecordDigest;
}

/** `record` as a {@linkcode RecordLine}. */
export function recordLine(record: TrajectoryRecord): RecordLine {
  return { line: JSON.stringify(record), digest: digestRecord(record) };
}
