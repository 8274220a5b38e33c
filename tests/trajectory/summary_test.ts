import assert from "node:assert/strict";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import { passAtK, summarize } from "../../src/trajectory/summary.ts";

/** The fields summarize() reads; the rest of a record does not matter to it. */
function record(task: string, total: number | null, integrity: string[] = []): TrajectoryRecord {
  return {
    task_id: task,
    stop_reason: "submitted",
    turns: [{}, {}],
    usage: { prompt_tokens: 10, completion_tokens: 2 },
    timings: { wall_ms: 100 },
    reward: total === null ? null : {
      total,
      resolved: total === 1,
      components: { integrity },
    },
  } as unknown as TrajectoryRecord;
}

Deno.test("summarize() counts samples whose test run was tampered with, by code", () => {
  const summary = summarize([
    record("a", 1),
    record("a", 0, ["canary_mismatch"]),
    record("b", 0, ["framework_tampered", "forbidden_operation"]),
    record("b", null),
  ]);
  assert.deepEqual(summary.integrity, {
    tampered: 2,
    rate: 0.667,
    codes: { canary_mismatch: 1, framework_tampered: 1, forbidden_operation: 1 },
  });
});

Deno.test("summarize() reads records written before integrity codes existed", () => {
  const old = record("a", 1);
  delete (old.reward!.components as { integrity?: string[] }).integrity;
  assert.deepEqual(summarize([old]).integrity, { tampered: 0, rate: 0, codes: {} });
});

Deno.test("passAtK() is the unbiased estimator and 1 when failures cannot fill k", () => {
  assert.equal(passAtK(0, 0, 1), 0);
  assert.equal(passAtK(4, 0, 2), 0);
  assert.equal(passAtK(4, 1, 1), 0.25);
  // 1 - C(3,2)/C(4,2) = 1 - 3/6
  assert.equal(passAtK(4, 1, 2), 0.5);
  assert.equal(passAtK(3, 2, 2), 1);
  assert.equal(passAtK(2, 1, 5), 1);
});
