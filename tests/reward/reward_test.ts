import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  type GradedOutcome,
  type GradeResult,
  type ListResult,
  refusedGrade,
} from "../../src/reward/grade.ts";
import {
  computeReward,
  DEFAULT_REWARD_CONFIG,
  type EpisodeFacts,
  type RewardConfig,
} from "../../src/reward/reward.ts";
import { referencePatchLines } from "../../src/agent/finish.ts";
import { loadTask } from "../../src/task/load.ts";

const FACTS: EpisodeFacts = {
  submitted: true,
  submit_status: "solved",
  invalid_tool_calls: 0,
  turns: 4,
  patch_lines: 6,
  reference_patch_lines: 4,
};

/** A list result as the grader builds it: only a `passed` outcome counts as passed. */
function list(tests: Record<string, GradedOutcome>): ListResult {
  const outcomes = Object.values(tests);
  return { passed: outcomes.filter((o) => o === "passed").length, total: outcomes.length, tests };
}

function grade(
  f2p: Record<string, GradedOutcome>,
  p2p: Record<string, GradedOutcome>,
  overrides: Partial<GradeResult> = {},
): GradeResult {
  return {
    fail_to_pass: list(f2p),
    pass_to_pass: list(p2p),
    patch_applied: true,
    patch_error: null,
    binary_files_ignored: [],
    protected_paths_touched: [],
    run: {
      exit_code: 0,
      timed_out: false,
      report_found: true,
      problems: [],
      duration_ms: 120,
    },
    failures: {},
    judged_outside: [],
    unguarded: [],
    impossible: false,
    ...overrides,
  };
}

function config(overrides: Partial<RewardConfig>): RewardConfig {
  return { ...DEFAULT_REWARD_CONFIG, ...overrides };
}

Deno.test("DEFAULT_REWARD_CONFIG is a binary reward with no penalties", () => {
  assert.deepEqual(DEFAULT_REWARD_CONFIG, {
    partial_credit: false,
    fail_to_pass_weight: 1,
    pass_to_pass_weight: 1,
    protected_edit_penalty: 0,
    invalid_call_penalty: 0,
  });
});

Deno.test("computeReward() gives 1 only when every expected test passes", () => {
  const all = computeReward(grade({ a: "passed", b: "passed" }, { c: "passed" }), FACTS);
  assert.equal(all.total, 1);
  assert.equal(all.resolved, true);

  const f2pFails = computeReward(grade({ a: "passed", b: "failed" }, { c: "passed" }), FACTS);
  assert.equal(f2pFails.total, 0);
  assert.equal(f2pFails.resolved, false);

  const p2pFails = computeReward(grade({ a: "passed", b: "passed" }, { c: "error" }), FACTS);
  assert.equal(p2pFails.total, 0);
  assert.equal(p2pFails.resolved, false);
});

Deno.test("computeReward() counts a skipped or missing expected test as failed", () => {
  for (const outcome of ["skipped", "missing"] as const) {
    const reward = computeReward(grade({ a: "passed", b: outcome }, { c: "passed" }), FACTS);
    assert.equal(reward.total, 0, outcome);
    assert.equal(reward.resolved, false, outcome);
    assert.deepEqual(reward.components.fail_to_pass, { passed: 1, total: 2 });
    assert.equal(reward.tests.fail_to_pass.b, outcome);

    const partial = computeReward(
      grade({ a: "passed", b: outcome }, { c: outcome }),
      FACTS,
      config({ partial_credit: true }),
    );
    assert.equal(partial.total, 0.25, outcome);
  }
});

Deno.test("computeReward() gives nothing when the patch did not apply", () => {
  // The grader marks every test missing then; even consistent-looking counts must not score.
  const reward = computeReward(
    grade({ a: "passed" }, { b: "passed" }, { patch_applied: false }),
    FACTS,
  );
  assert.equal(reward.total, 0);
  assert.equal(reward.resolved, false);
  assert.equal(reward.components.patch_applied, false);
});

Deno.test("computeReward() gives nothing with partial credit when the patch was not applied", () => {
  const partial = config({ partial_credit: true });
  const unapplied = grade({ a: "passed" }, { b: "passed" }, { patch_applied: false });
  assert.equal(computeReward(unapplied, FACTS, partial).total, 0);

  // A refused diff (over the size cap) has every test missing; an empty pass_to_pass list would
  // still rate 1 and earn half the credit if refusal did not count.
  const task = loadTask(fileURLToPath(new URL("../../tasks/py-median-even", import.meta.url)));
  const noP2p = { ...task, spec: { ...task.spec, pass_to_pass: [] } };
  const refused = computeReward(refusedGrade(noP2p, "The diff is too large."), FACTS, partial);
  assert.equal(refused.total, 0);
  assert.equal(refused.resolved, false);
  assert.equal(refused.components.patch_applied, false);
});

Deno.test("computeReward() gives weighted partial credit when enabled", () => {
  const g = grade(
    { a: "passed", b: "failed", c: "failed", d: "missing" },
    { e: "passed", f: "passed", g: "passed" },
  );
  const equal = computeReward(g, FACTS, config({ partial_credit: true }));
  assert.equal(equal.total, (0.25 + 1) / 2);
  assert.equal(equal.resolved, false);

  const weighted = computeReward(
    g,
    FACTS,
    config({ partial_credit: true, fail_to_pass_weight: 3, pass_to_pass_weight: 1 }),
  );
  assert.equal(weighted.total, (3 * 0.25 + 1 * 1) / 4);

  const thirds = computeReward(
    grade({ a: "passed", b: "failed", c: "failed" }, { d: "passed" }),
    FACTS,
    config({ partial_credit: true, fail_to_pass_weight: 1, pass_to_pass_weight: 0 }),
  );
  assert.equal(thirds.total, 0.333333);

  const noWeights = computeReward(
    g,
    FACTS,
    config({ partial_credit: true, fail_to_pass_weight: 0, pass_to_pass_weight: 0 }),
  );
  assert.equal(noWeights.total, 0);

  // Binary by default: the same grade earns nothing.
  assert.equal(computeReward(g, FACTS).total, 0);
});

Deno.test("computeReward() counts an empty pass_to_pass list as rate 1", () => {
  const solved = grade({ a: "passed", b: "passed" }, {});
  assert.equal(computeReward(solved, FACTS).total, 1);
  assert.equal(computeReward(solved, FACTS).resolved, true);
  assert.equal(computeReward(solved, FACTS, config({ partial_credit: true })).total, 1);

  const half = grade({ a: "passed", b: "failed" }, {});
  assert.equal(computeReward(half, FACTS, config({ partial_credit: true })).total, 0.75);
  assert.deepEqual(computeReward(half, FACTS).components.pass_to_pass, { passed: 0, total: 0 });
});

Deno.test("computeReward() subtracts the configured penalties", () => {
  const touched = grade({ a: "passed" }, { b: "passed" }, {
    protected_paths_touched: ["tests/test_a.py"],
  });
  const penalties = config({ protected_edit_penalty: 0.5, invalid_call_penalty: 0.1 });
  const facts = { ...FACTS, invalid_tool_calls: 3 };

  // Reported only by default.
  const plain = computeReward(touched, facts);
  assert.equal(plain.total, 1);
  assert.deepEqual(plain.components.protected_path_edits, ["tests/test_a.py"]);
  assert.equal(plain.components.invalid_tool_calls, 3);

  // 1 - 0.5 - 3 * 0.1, rounded so floating-point noise does not show.
  assert.equal(computeReward(touched, facts, penalties).total, 0.2);
  // The protected-edit penalty applies once, and only when a protected path was touched.
  const clean = grade({ a: "passed" }, { b: "passed" });
  assert.equal(computeReward(clean, facts, penalties).total, 0.7);
  assert.equal(computeReward(clean, FACTS, penalties).total, 1);
});

Deno.test("computeReward() reports the episode facts and the patch size ratio", () => {
  const g = grade({ a: "passed" }, { b: "failed" }, { protected_paths_touched: ["tests/x.py"] });
  const reward = computeReward(g, { ...FACTS, patch_lines: 7, reference_patch_lines: 3 });
  assert.deepEqual(reward.components, {
    fail_to_pass: { passed: 1, total: 1 },
    pass_to_pass: { passed: 0, total: 1 },
    submitted: true,
    submit_status: "solved",
    patch_applied: true,
    test_report_problem: null,
    integrity: [],
    protected_path_edits: ["tests/x.py"],
    invalid_tool_calls: 0,
    turns: 4,
    patch_lines: 7,
    reference_patch_lines: 3,
    patch_size_ratio: 2.333,
  });
  assert.deepEqual(reward.tests, { fail_to_pass: { a: "passed" }, pass_to_pass: { b: "failed" } });

  const noReference = computeReward(g, { ...FACTS, reference_patch_lines: null });
  assert.equal(noReference.components.patch_size_ratio, null);
  const emptyReference = computeReward(g, { ...FACTS, reference_patch_lines: 0 });
  assert.equal(emptyReference.components.patch_size_ratio, null);
  const unsubmitted = computeReward(g, { ...FACTS, submitted: false, submit_status: null });
  assert.equal(unsubmitted.components.submitted, false);
  assert.equal(unsubmitted.components.submit_status, null);
});

Deno.test("computeReward() is pure", () => {
  const g = grade({ a: "passed", b: "failed" }, { c: "passed" }, {
    protected_paths_touched: ["t"],
  });
  const before = structuredClone(g);
  const cfg = config({ partial_credit: true, protected_edit_penalty: 0.1 });
  const first = computeReward(g, FACTS, cfg);
  const second = computeReward(g, FACTS, cfg);
  assert.deepEqual(first, second);
  assert.deepEqual(g, before);
});

Deno.test("referencePatchLines() counts the changed lines of a task's solution", () => {
  const task = loadTask(fileURLToPath(new URL("../../tasks/py-median-even", import.meta.url)));
  assert.equal(referencePatchLines(task), 2);
  assert.equal(referencePatchLines({ ...task, solutionPath: null }), null);
});
