import assert from "node:assert/strict";
import { labelOf, taskDifficulty } from "../../src/trajectory/difficulty.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";

/** The fields taskDifficulty() reads, as a record. */
function sample(task: string, resolved: boolean | null, stop = "submitted"): TrajectoryRecord {
  return {
    task_id: task,
    stop_reason: stop,
    reward: resolved === null ? null : { total: resolved ? 1 : 0, resolved },
    task: { language: "python", difficulty: "hard", kind: "feature", max_turns: 30 },
  } as unknown as TrajectoryRecord;
}

Deno.test("taskDifficulty() labels tasks by solve rate and leaves out errored samples", () => {
  const records = [
    ...[true, true, true, true].map((r) => sample("always", r)),
    ...[true, false, false, false].map((r) => sample("rarely", r)),
    ...[true, true, false, false].map((r) => sample("half", r)),
    ...[false, false].map((r) => sample("never", r)),
    sample("never", null, "environment_error"),
    sample("errored", true, "policy_error"),
  ];
  const rows = taskDifficulty(records, 2);
  assert.deepEqual(rows.map((r) => [r.task_id, r.label, r.samples]), [
    ["never", "unsolved", 2],
    ["rarely", "medium", 4],
    ["half", "medium", 4],
    ["always", "easy", 4],
  ]);
  // pass@2 of 1 in 4: 1 - C(3,2)/C(4,2) = 0.5.
  assert.equal(rows.find((r) => r.task_id === "rarely")!.pass_at_k, 0.5);
  assert.equal(rows[0].declared, "hard");
});

Deno.test("labelOf() puts thresholds at 0.25 and 0.75", () => {
  assert.equal(labelOf(1, 0.2), "hard");
  assert.equal(labelOf(1, 0.25), "medium");
  assert.equal(labelOf(3, 0.75), "easy");
  assert.equal(labelOf(0, 0), "unsolved");
});

Deno.test("taskDifficulty() names the k it could estimate: fewer samples than k give pass@samples", () => {
  const records = [true, false].map((r) => sample("two", r));
  const [row] = taskDifficulty(records, 5);
  assert.equal(row.k, 2);
  assert.equal(row.pass_at_k, 1);
  assert.equal(taskDifficulty([...records, sample("two", false)], 2)[0].k, 2);
});
