/**
 * `report.html`: one self-contained page per run (no network: CSS, script and data inline) with
 * the summary (by task, language, difficulty, kind; pass@k; tokens; time; stop reasons; drift and
 * tamper rates) and a viewer that steps through any episode with its diff and test results.
 *
 * Agent-produced text reaches the page only inside one JSON data block, escaped so that no
 * sequence in it can close the block ({@linkcode embedJson}), and the script renders it with
 * `textContent`, never as markup.
 */
import { REPORT_CSS, REPORT_JS } from "./_report_client.ts";
import type { TrajectoryRecord } from "./record.ts";
import { outcomeOf, type RunSummary } from "./summary.ts";

/** The report's file name in a run folder. */
export const REPORT_FILE = "report.html";

/** Longest text kept per tool output, model reply or test output in the report. */
export const REPORT_TEXT_LIMIT = 8_000;
/** Longest diff kept per episode in the report. */
export const REPORT_DIFF_LIMIT = 100_000;

/** What a report shows. */
export interface ReportInput {
  run_id: string;
  /** One line under the title, e.g. the policy and model. */
  subtitle: string;
  /** The run summary; fields beyond {@linkcode RunSummary} (e.g. drift or tamper rates) are shown too. */
  summary: RunSummary;
  records: TrajectoryRecord[];
}

/** The HTML of the report. */
export function renderReport(input: ReportInput): string {
  const data = {
    run_id: input.run_id,
    subtitle: input.subtitle,
    summary: input.summary,
    episodes: [...input.records]
      .sort((a, b) => a.task_id.localeCompare(b.task_id) || a.sample - b.sample)
      .map(episodeView),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>patchgym run ${escapeHtml(input.run_id)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1 id="title">patchgym run</h1><span class="sub" id="subtitle"></span></header>
<nav><a href="#summary" data-tab="summary">Summary</a><a href="#episodes" data-tab="episodes">Episodes</a></nav>
<main id="app"><noscript>This report needs JavaScript to show the run.</noscript></main>
<script type="application/json" id="patchgym-data">${embedJson(data)}</script>
<script>${REPORT_JS}</script>
</body>
</html>
`;
}

/**
 * JSON that is safe inside a `<script>` element: `<`, `>` and `&` are written as `\u` escapes
 * (so neither `</script>` nor `<!--` can appear), as are the line separators JavaScript once
 * treated as newlines. `JSON.parse` reads the same value back.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Text for an HTML text node or attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The part of a record the viewer shows, long texts cut to bounded size. */
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
