import assert from "node:assert/strict";
import { z } from "zod";
import { formatIssue, formatIssues } from "../src/zod_issues.ts";

const Schema = z.strictObject({
  name: z.string(),
  limits: z.strictObject({ turns: z.number() }),
  runner: z.enum(["pytest", "unittest"]),
  steps: z.array(z.strictObject({ tool: z.string().min(1) })),
});

function problems(input: unknown): string[] {
  const parsed = Schema.safeParse(input);
  assert.equal(parsed.success, false);
  return formatIssues(parsed.error!, input);
}

Deno.test("formatIssues() tells a missing field from one of the wrong type", () => {
  assert.deepEqual(
    problems({ limits: { turns: "3" }, runner: "pytest", steps: [] }),
    [
      "name: required field is missing; add it",
      'limits.turns: expected number, got a string ("3"); fix the type',
    ],
  );
});

Deno.test("formatIssues() names unknown fields, allowed values and array items", () => {
  assert.deepEqual(
    problems({ name: "x", limits: { turns: 1 }, runner: "jest", steps: [{ tool: "" }], extra: 1 }),
    [
      'runner: must be one of "pytest", "unittest"',
      "steps[0].tool: Too small: expected string to have >=1 characters",
      'unknown field "extra"; remove it or check the spelling',
    ].map((p, i) => (i === 2 ? `(top level): ${p}` : p)),
  );
});

Deno.test("formatIssue() shows paths under a name when told", () => {
  const input = [{ tool: "read_file" }, { tool: 3 }];
  const parsed = z.array(z.strictObject({ tool: z.string() })).safeParse(input);
  assert.equal(
    formatIssue(parsed.error!.issues[0], input, { under: "steps" }),
    "steps[1].tool: expected string, got a number (3); fix the type",
  );
});

Deno.test("formatIssue() names the top of the value as told", () => {
  const parsed = z.number().safeParse("a");
  assert.equal(
    formatIssue(parsed.error!.issues[0], "a", { top: "(record)" }),
    '(record): expected number, got a string ("a"); fix the type',
  );
});
