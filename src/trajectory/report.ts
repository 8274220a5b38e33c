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
import { type RecordDigest, viewOf } from "./digest.ts";
import type { RunSummary } from "./summary.ts";

/** The report's file name in a run folder. */
export const REPORT_FILE = "report.html";

/** What a report shows. */
export interface ReportInput {
  run_id: string;
  /** One line under the title, e.g. the policy and model. */
  subtitle: string;
  /** The run summary; fields beyond {@linkcode RunSummary} (e.g. drift or tamper rates) are shown too. */
  summary: RunSummary;
  /** The episodes' digests (`digest.ts`). */
  episodes: readonly RecordDigest[];
}

/** The HTML of the report. */
export function renderReport(input: ReportInput): string {
  const data = {
    run_id: input.run_id,
    subtitle: input.subtitle,
    summary: input.summary,
    episodes: [...input.episodes]
      .sort((a, b) => a.task_id.localeCompare(b.task_id) || a.sample - b.sample)
      .map(viewOf),
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
