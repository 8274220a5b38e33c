/**
 * Zod validation problems as messages in the house style, with one wording for the whole project:
 * `where: what is wrong; what to do`, where `where` is the field path (`limits.max_turns`,
 * `steps[2].tool`).
 */
import type { z } from "zod";

/** Options of {@linkcode formatIssue}. */
export interface IssueOptions {
  /** How to name the validated value itself, for an issue at its top (default `(top level)`). */
  top?: string;
  /** A name the paths are shown under: `steps` gives `steps[0].tool`, and names the top too. */
  under?: string;
}

/**
 * One zod issue as a message. `input` is the value that was validated: zod does not keep it, and
 * it tells a missing field from one of the wrong type.
 */
export function formatIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  options: IssueOptions = {},
): string {
  const where = fieldPath(issue.path, options.under ?? "") || (options.top ?? "(top level)");
  if (issue.code === "unrecognized_keys") {
    const many = issue.keys.length > 1;
    return `${where}: unknown field${many ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }; remove ${many ? "them" : "it"} or check the spelling`;
  }
  if (issue.code === "invalid_type") {
    const given = valueAt(input, issue.path);
    if (given === undefined) return `${where}: required field is missing; add it`;
    return `${where}: expected ${issue.expected}, got ${describe(given)}; fix the type`;
  }
  if (issue.code === "invalid_value") {
    return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return `${where}: ${issue.message}`;
}

/** Every issue of `error` as a message (see {@linkcode formatIssue}). */
export function formatIssues(
  error: z.ZodError,
  input: unknown,
  options: IssueOptions = {},
): string[] {
  return error.issues.map((issue) => formatIssue(issue, input, options));
}

/** `a.b[0].c` for the path `["a", "b", 0, "c"]`, under `under` when given. */
function fieldPath(path: readonly PropertyKey[], under: string): string {
  return path.reduce<string>(
    (acc, key) =>
      typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key),
    under,
  );
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A JSON value's type and a short form of it, e.g. `a string ("3")`. */
function describe(value: unknown): string {
  const type = value === null
    ? "null"
    : Array.isArray(value)
    ? "an array"
    : typeof value === "object"
    ? "an object"
    : `a ${typeof value}`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 40 ? `${type} (${text})` : type;
}
