import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { humanEvalTaskId, importHumanEval } from "../../src/task/import_humaneval.ts";
import { loadTask } from "../../src/task/load.ts";

// Records in HumanEval's format (task_id, prompt, canonical_solution, test, entry_point), written
// for these tests.
const RECORDS = [
  {
    task_id: "HumanEval/900",
    prompt:
      'from typing import List\n\n\ndef running_max(numbers: List[int]) -> List[int]:\n    """ Return the running maximum of a list of integers.\n    >>> running_max([1, 3, 2, 5])\n    [1, 3, 3, 5]\n    """\n',
    canonical_solution:
      "    result = []\n    best = None\n    for n in numbers:\n        best = n if best is None else max(best, n)\n        result.append(best)\n    return result\n",
    test:
      "\n\nMETADATA = {\n    'author': 'patchgym',\n    'dataset': 'test'\n}\n\n\ndef check(candidate):\n    assert candidate([]) == []\n    assert candidate([1, 3, 2, 5]) == [1, 3, 3, 5]\n    assert candidate([-4, -7]) == [-4, -4]\n",
    entry_point: "running_max",
  },
  {
    task_id: "HumanEval/901",
    prompt:
      'import math\n\n\ndef _square(x):\n    return x * x\n\n\ndef hypotenuse(a: float, b: float) -> float:\n    """Length of the hypotenuse of a right triangle with legs a and b.\n    >>> hypotenuse(3, 4)\n    5.0\n    """\n',
    canonical_solution: "    return math.sqrt(_square(a) + _square(b))\n",
    test:
      "def check(candidate):\n    assert candidate(3, 4) == 5.0\n    assert abs(candidate(1, 1) - math.sqrt(2)) < 1e-9\n",
    entry_point: "hypotenuse",
  },
  {
    task_id: "HumanEval/902",
    prompt: "def f(x):\n",
    canonical_solution: "    return x\n",
    test: "def check(candidate):\n    assert candidate(1) == 1\n",
    entry_point: "g",
  },
  { task_id: "HumanEval/903", prompt: "def f(x):\n" },
];

async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-humaneval-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("humanEvalTaskId() maps HumanEval/12 to humaneval-12", () => {
  assert.equal(humanEvalTaskId("HumanEval/12"), "humaneval-12");
});

Deno.test("importHumanEval() imports good records, reports each bad one, and the tasks validate", async () => {
  await withTemp(async (dir) => {
    const out = join(dir, "tasks");
    const text = `${RECORDS.map((r) => JSON.stringify(r)).join("\n")}\n{oops\n`;
    const outcomes = importHumanEval(text, out);
    assert.deepEqual(outcomes.map((o) => [o.line, o.ok, o.id]), [
      [1, true, "humaneval-900"],
      [2, true, "humaneval-901"],
      [3, false, "humaneval-902"],
      [4, false, null],
      [5, false, null],
    ]);
    assert.deepEqual(outcomes[2].problems, [
      'prompt: does not define the entry point "g" at top level; fix entry_point',
    ]);
    assert.deepEqual(outcomes[3].problems, [
      "canonical_solution: required field is missing; add it",
      "test: required field is missing; add it",
      "entry_point: required field is missing; add it",
    ]);
    assert.match(outcomes[4].problems[0], /^not valid JSON: /);

    const task = loadTask(join(out, "humaneval-900"));
    assert.match(
      readFileSync(join(task.repoDir, "solution.py"), "utf8"),
      /"""\n {4}raise NotImplementedError\("running_max is not written yet"\)\n$/,
    );
    const env = await Environment.open({ tasksDir: out, workRoot: join(dir, "work") });
    for (const id of ["humaneval-900", "humaneval-901"]) {
      const result = await validateTask(env, id);
      assert.deepEqual(result.problems, [], id);
      assert.equal(result.status, "valid");
    }
  });
});
