/**
 * What a synthesized task tells the agent, written from the failing tests' behaviour (their names
 * and the end of their failure output), never from the mutation itself, and a difficulty estimate.
 */
import type { TaskSpec } from "../task/spec.ts";

/** The failing tests of a mutant and what they printed. */
export interface FailureEvidence {
  /** fail_to_pass test ids. */
  failing: string[];
  /** Failure output by test id (as the grader reports it). */
  output: Record<string, string>;
  /** Test files the agent can run (failures there are visible to it). */
  visibleTests: string[];
}

/** Tests named in a statement, at most; the rest are counted. */
const NAMED_TESTS = 5;

/** A developer's bug report: which tests fail and how, with the most telling error line. */
export function writeStatement(evidence: FailureEvidence): string {
  const named = evidence.failing.slice(0, NAMED_TESTS);
  const lines = named.map((id) => {
    const error = errorLine(evidence.output[id] ?? "");
    return `- \`${id}\`${error ? `: ${error}` : ""}`;
  });
  const more = evidence.failing.length - named.length;
  if (more > 0) lines.push(`- and ${more} more`);
  const hiddenOnly = evidence.failing.every((id) =>
    !evidence.visibleTests.includes(id.split("::")[0])
  );
  return [
    `A recent change broke behaviour that used to work: ${evidence.failing.length} test${
      evidence.failing.length === 1 ? "" : "s"
    } of the project's suite now fail${evidence.failing.length === 1 ? "s" : ""}:`,
    "",
    ...lines,
    "",
    hiddenOnly
      ? "These tests are not in the repository you see; the tests you can run still pass, so read the code the failing tests exercise."
      : "Run the tests to see the failures.",
    "Find the bug in the code (not in the tests) and fix it without breaking other behaviour.",
  ].join("\n");
}

/** The last line of failure output that names an error, trimmed to a readable length. */
function errorLine(output: string): string {
  const lines = output.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const error =
    [...lines].reverse().find((l) =>
      /(Error|Exception|assert|Expected|expected|!=|==)/.test(l) && !l.startsWith("File ")
    ) ?? lines.at(-1) ?? "";
  // deno test colours its messages; the statement is plain text.
  // deno-lint-ignore no-control-regex
  const clean = error.replace(/\x1b\[[0-9;]*m/g, "");
  return clean.length > 160 ? `${clean.slice(0, 157)}...` : clean;
}

/**
 * Difficulty from what the agent must do: one mutation whose failures it can see is easy; one it
 * can only infer from hidden tests, or two mutations, is medium; more, or mutations in several
 * files, is hard.
 */
export function estimateDifficulty(
  mutations: { file: string }[],
  evidence: FailureEvidence,
): TaskSpec["difficulty"] {
  const files = new Set(mutations.map((m) => m.file)).size;
  const visible = evidence.failing.some((id) => evidence.visibleTests.includes(id.split("::")[0]));
  if (mutations.length >= 3 || files > 1) return "hard";
  if (mutations.length === 2 || !visible) return "medium";
  return "easy";
}
