/**
 * HumanEval-style problems to patchgym tasks. Each JSONL record has `task_id`, `prompt` (the
 * function's signature and docstring, often with imports and helpers before it),
 * `canonical_solution` (the body), `test` (a `check(candidate)` function, sometimes with
 * `METADATA`) and `entry_point` (the function's name), as in OpenAI's HumanEval and the datasets
 * that copy its format (MBPP-style conversions, HumanEval-X Python, EvalPlus).
 *
 * The task's repository is `solution.py`: the prompt with a body that raises
 * `NotImplementedError`. A visible test checks only that the function exists (pass-to-pass); the
 * hidden test runs `check` on it (fail-to-pass). The canonical solution is the reference patch.
 */
import { mkdirSync } from "node:fs";
import { z } from "zod";
import { fileDiff } from "../patch/write.ts";
import { writeNewTask } from "./write.ts";
import type { TaskSpec } from "./spec.ts";

/** The fields of one HumanEval record that patchgym reads. */
export const HumanEvalRecordSchema = z.looseObject({
  task_id: z.string().min(1),
  prompt: z.string().min(1),
  canonical_solution: z.string().min(1),
  test: z.string().min(1),
  entry_point: z.string().regex(/^[A-Za-z_]\w*$/, { message: "must be a Python function name" }),
});

/** What happened to one line of the input (the same shape as the SWE-bench importer's). */
export interface HumanEvalOutcome {
  line: number;
  task_id: string | null;
  id: string | null;
  ok: boolean;
  dir: string | null;
  problems: string[];
  notes: string[];
}

const MODULE = "solution.py";
const VISIBLE = "tests/test_solution_api.py";
const HIDDEN = "tests/test_solution_hidden.py";

/** The patchgym task id for a HumanEval task id: `HumanEval/12` becomes `humaneval-12`. */
export function humanEvalTaskId(taskId: string): string {
  return taskId.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
}

/** Import every record of a JSONL text into `outDir/<id>/`, reporting each line. */
export function importHumanEval(text: string, outDir: string): HumanEvalOutcome[] {
  mkdirSync(outDir, { recursive: true });
  const outcomes: HumanEvalOutcome[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() !== "") outcomes.push(importLine(line, index + 1, outDir));
  });
  return outcomes;
}

function importLine(line: string, lineNo: number, outDir: string): HumanEvalOutcome {
  const failed = (taskId: string | null, id: string | null, problems: string[]) => ({
    line: lineNo,
    task_id: taskId,
    id,
    ok: false,
    dir: null,
    problems,
    notes: [],
  });
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return failed(null, null, [`not valid JSON: ${(error as Error).message}; fix the line`]);
  }
  const taskId = typeof raw === "object" && raw !== null &&
      typeof (raw as Record<string, unknown>).task_id === "string"
    ? (raw as Record<string, string>).task_id
    : null;
  const parsed = HumanEvalRecordSchema.safeParse(raw);
  if (!parsed.success) {
    return failed(
      taskId,
      null,
      parsed.error.issues.map((i) =>
        `${i.path.join(".") || "(record)"}: ${
          i.code === "invalid_type" && i.input === undefined
            ? "required field is missing; add it"
            : i.message
        }`
      ),
    );
  }
  const record = parsed.data;
  const id = humanEvalTaskId(record.task_id);
  const problems: string[] = [];
  if (!/^[a-z0-9]/.test(id)) {
    problems.push(`task_id: "${record.task_id}" gives no usable task id; rename the task`);
  }
  if (!new RegExp(`^def\\s+${record.entry_point}\\s*\\(`, "m").test(record.prompt)) {
    problems.push(
      `prompt: does not define the entry point "${record.entry_point}" at top level; fix entry_point`,
    );
  }
  if (!/^def\s+check\s*\(/m.test(record.test)) {
    problems.push('test: does not define "check(candidate)"; HumanEval tests call check()');
  }
  if (problems.length > 0) return failed(record.task_id, id, problems);
  const prompt = record.prompt.endsWith("\n") ? record.prompt : `${record.prompt}\n`;
  const indent = /^([ \t]+)\S/m.exec(record.canonical_solution)?.[1] ?? "    ";
  const stub =
    `${prompt}${indent}raise NotImplementedError("${record.entry_point} is not written yet")\n`;
  const solved = `${prompt}${record.canonical_solution.replace(/^\n+/, "")}`.replace(/\n*$/, "\n");
  const patch = fileDiff(MODULE, encode(stub), encode(solved));
  const spec: TaskSpec = {
    id,
    title: `Implement ${record.entry_point}() (${record.task_id})`,
    language: "python",
    difficulty: "easy",
    kind: "feature",
    statement:
      `Implement \`${record.entry_point}\` in \`${MODULE}\`: its body only raises NotImplementedError. Its docstring says what it must do, with examples; keep the signature.`,
    runner: "unittest",
    visible_tests: [VISIBLE],
    hidden_tests: [HIDDEN],
    fail_to_pass: [`${HIDDEN}::HumanEvalTest::test_check`],
    pass_to_pass: [`${VISIBLE}::ApiTest::test_defines_${record.entry_point}`],
    protected_paths: ["tests/"],
    limits: { max_turns: 20, command_timeout_s: 20 },
    solution: "solution.patch",
  };
  const written = writeNewTask(outDir, {
    spec,
    repo: {
      [MODULE]: stub,
      "tests/__init__.py": "",
      [VISIBLE]: visibleTest(record.entry_point),
    },
    hidden: { [HIDDEN]: hiddenTest(record.entry_point, record.test) },
    patch,
  });
  if (!written.ok) return failed(record.task_id, id, written.problems);
  return {
    line: lineNo,
    task_id: record.task_id,
    id,
    ok: true,
    dir: written.dir,
    problems: [],
    notes: [],
  };
}

function visibleTest(entryPoint: string): string {
  return `import unittest

import solution


class ApiTest(unittest.TestCase):
    def test_defines_${entryPoint}(self):
        self.assertTrue(callable(getattr(solution, "${entryPoint}", None)))


if __name__ == "__main__":
    unittest.main()
`;
}

function hiddenTest(entryPoint: string, test: string): string {
  return `import unittest

from solution import *  # noqa: F401,F403 (the checks may use the prompt's imports)
from solution import ${entryPoint}

${test.trim()}


class HumanEvalTest(unittest.TestCase):
    def test_check(self):
        check(${entryPoint})


if __name__ == "__main__":
    unittest.main()
`;
}

function encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
