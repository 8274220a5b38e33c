/**
 * Statements for mined and synthesized tasks: from a template over the commit message and the
 * failing tests' behaviour, or written by a model through an OpenAI-compatible endpoint. Neither
 * sees the fix.
 */

/** An OpenAI-compatible chat-completions endpoint. */
export interface StatementEndpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** What a statement is written from. */
export interface StatementInput {
  subject: string;
  body: string;
  /** fail_to_pass test ids. */
  failing: string[];
  /** Failure output before the fix, by test id. */
  failures: Map<string, string>;
}

/** Commit trailers and references that say nothing about the behaviour. */
const TRAILER = /^(Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Change-Id|Cc):/i;

/** A statement from the commit message and what the failing tests observe. */
export function templateStatement(input: StatementInput): string {
  const body = input.body.split("\n").filter((l) => !TRAILER.test(l.trim())).join("\n").trim();
  const lines = [input.subject.trim()];
  if (body) lines.push("", body);
  lines.push("", "What goes wrong today (these tests fail; they are run for grading):");
  for (const id of input.failing.slice(0, 8)) {
    const symptom = symptomOf(input.failures.get(id) ?? "");
    lines.push(`- ${humanTestName(id)}${symptom ? `: ${symptom}` : ""}`);
  }
  if (input.failing.length > 8) lines.push(`- and ${input.failing.length - 8} more`);
  lines.push(
    "",
    "Change the code (not the tests) so that they pass and the other tests keep passing.",
  );
  return lines.join("\n");
}

/**
 * An issue-style statement from a model, or null when the endpoint fails (the caller keeps the
 * template). The model sees the commit message and the failures, never the diff.
 */
export async function writeModelStatement(
  endpoint: StatementEndpoint,
  input: StatementInput,
): Promise<string | null> {
  const evidence = input.failing.slice(0, 8).map((id) =>
    `${id}\n${(input.failures.get(id) ?? "").slice(-1200)}`
  ).join("\n\n");
  const context = input.subject.trim()
    ? `Commit message of the upstream fix (for context only, do not copy it):\n${input.subject}\n${input.body}\n\n`
    : "";
  const prompt =
    `Write a GitHub issue, as a user of this project would, describing the bug or missing behaviour that these failing tests show. Say what happens and what should happen; do not mention test names, do not propose code, do not say how to fix it. Plain text, at most 15 lines.\n\n${context}Failing tests and their output:\n${evidence}`;
  try {
    const response = await fetch(`${endpoint.baseUrl.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: endpoint.model,
        messages: [{ role: "user", content: prompt }],
        temperature: 0.2,
        max_tokens: 600,
      }),
      signal: AbortSignal.timeout(120_000),
    });
    if (!response.ok) return null;
    const data = await response.json();
    const text = data?.choices?.[0]?.message?.content;
    return typeof text === "string" && text.trim().length > 20 ? text.trim() : null;
  } catch {
    return null;
  }
}

/** `tests/test_x.py::Class::test_some_name` -> `Class: some name (tests/test_x.py)`. */
function humanTestName(id: string): string {
  const [file, ...rest] = id.split("::");
  const name = rest.map((p) => p.replace(/^test_?/, "").replaceAll("_", " ")).join(": ");
  return `${name} (${file})`;
}

/** The last meaningful line of a failure: the exception and its message. */
function symptomOf(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const at = lines.findLastIndex((l) => /^(E\s+)?\w*(Error|Exception|assert)\b/.test(l));
  const error = lines[at < 0 ? lines.length - 1 : at] ?? "";
  // Node's assertion errors end in a colon and give the values on the next line; jest's give
  // them on lines of their own.
  const values = at < 0
    ? []
    : lines.slice(at + 1, at + 3).filter((l) => /^(Expected|Received)\b/.test(l));
  const detail = values.length > 0
    ? ` (${values.join(", ")})`
    : at >= 0 && error.endsWith(":") && lines[at + 1]
    ? ` ${lines[at + 1]}`
    : "";
  return (error + detail).replace(/^E\s+/, "").slice(0, 200);
}
