import assert from "node:assert/strict";
import type { TurnTokens } from "../../src/policy/types.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import type { IntegrityCode } from "../../src/sandbox/test_runner.ts";
import { digestRecord, outcomeOf } from "../../src/trajectory/digest.ts";
import {
  formatTraining,
  passAtK,
  summarize as summarizeDigests,
  summarizeTraining as summarizeTrainingDigests,
} from "../../src/trajectory/summary.ts";
import { fakeRecord } from "./_records.ts";
import { buildTrainingView, type TrainingViewOptions } from "../../src/trajectory/training_view.ts";

// A run summarizes its records' digests, made as each record is written.
const summarize = (records: TrajectoryRecord[]) => summarizeDigests(records.map(digestRecord));
const summarizeTraining = (records: TrajectoryRecord[]) =>
  summarizeTrainingDigests(records.map(digestRecord));

/** A resolved sample of task "t" with a token view from `tokens` (one entry per turn). */
function sample(
  tokens: (TurnTokens | null)[],
  options: TrainingViewOptions = {},
): TrajectoryRecord {
  return fakeRecord({
    episode: `run/t/${crypto.randomUUID()}`,
    group: "t",
    sample: 0,
    resolved: true,
    tokens,
    overrides: { training: buildTrainingView(tokens, options) },
  });
}

const CLEAN: TurnTokens[] = [
  { prompt_ids: [1], completion_ids: [2, 3], logprobs: null },
  { prompt_ids: [1, 2, 3, 4], completion_ids: [5], logprobs: null },
];
const DRIFT: TurnTokens[] = [
  { prompt_ids: [1], completion_ids: [2], logprobs: null },
  { prompt_ids: [9], completion_ids: [3], logprobs: null },
];

Deno.test("summarizeTraining() counts token views, drift, tokens with loss and zero-loss samples", () => {
  const records = [
    sample(CLEAN),
    sample(DRIFT),
    sample(DRIFT, { onDrift: "zero_mask" }),
    sample([null]),
  ];
  assert.deepEqual(summarizeTraining(records), {
    with_tokens: 3,
    drifted: 2,
    drift_rate: 0.667,
    trainable_tokens: 5,
    zero_loss: 1,
  });
  const summary = summarize(records);
  assert.deepEqual(summary.training, summarizeTraining(records));
  assert.equal(
    formatTraining(summary),
    "training tokens: 3/4 samples with token ids   drift 2 (rate 0.667)   trainable tokens 5   zero-loss samples 1",
  );
});

Deno.test("summarizeTraining() is all zero without token views", () => {
  assert.deepEqual(summarizeTraining([sample([null])]), {
    with_tokens: 0,
    drifted: 0,
    drift_rate: 0,
    trainable_tokens: 0,
    zero_loss: 0,
  });
});

/** A sample of `task` with reward `total` (null: not graded) and the grade's integrity codes. */
function record(
  task: string,
  total: number | null,
  integrity: IntegrityCode[] = [],
): TrajectoryRecord {
  const r = fakeRecord({
    episode: `run/${task}/${crypto.randomUUID()}`,
    group: task,
    sample: 0,
    resolved: total === null ? null : total === 1,
    tokens: [null],
  });
  if (r.reward) {
    r.reward = { ...r.reward, total: total!, components: { ...r.reward.components, integrity } };
  }
  return r;
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

const RESOLVED = fakeRecord({
  episode: "r/a/0",
  group: "a",
  sample: 0,
  resolved: true,
  tokens: [],
});
const UNRESOLVED = fakeRecord({
  episode: "r/a/1",
  group: "a",
  sample: 1,
  resolved: false,
  tokens: [],
});
const EMPTY = fakeRecord({
  episode: "r/b/0",
  group: "b",
  sample: 0,
  resolved: false,
  tokens: [],
  overrides: {
    final_diff: "",
    task: { language: "typescript", difficulty: "hard", kind: "feature", max_turns: 5 },
  },
});
const ERROR = fakeRecord({
  episode: "r/c/0",
  group: "c",
  sample: 0,
  resolved: null,
  tokens: [],
  overrides: { stop_reason: "policy_error" },
});

Deno.test("outcomeOf() puts errors first, then empty patches, then the grade", () => {
  assert.deepEqual([RESOLVED, UNRESOLVED, EMPTY, ERROR].map(outcomeOf), [
    "resolved",
    "unresolved",
    "empty_patch",
    "error",
  ]);
});

Deno.test("summarize() lists episode ids by outcome and breaks results down", () => {
  const summary = summarize([ERROR, UNRESOLVED, EMPTY, RESOLVED]);
  assert.deepEqual(summary.ids, {
    resolved: ["r/a/0"],
    unresolved: ["r/a/1"],
    error: ["r/c/0"],
    empty_patch: ["r/b/0"],
  });
  assert.deepEqual(Object.keys(summary.by_language), ["python", "typescript"]);
  assert.deepEqual(summary.by_language.python, {
    tasks: 2,
    samples: 3,
    resolved: 1,
    mean_reward: 0.333,
    pass_at_1: 0.25,
  });
  assert.equal(summary.by_difficulty.hard.samples, 1);
  assert.equal(summary.by_kind.feature.resolved, 0);
  assert.equal(summary.pass_at_k?.k, 2);
  assert.deepEqual(summary.tokens, { prompt: 40, completion: 12 });
  assert.deepEqual(summary.wall_ms, { total_sample: 20, mean_sample: 5 });
  assert.deepEqual(summary.per_task.map((t) => [t.task_id, t.samples, t.resolved, t.mean_turns]), [
    ["task-a", 2, 1, 0],
    ["task-b", 1, 0, 0],
    ["task-c", 1, 0, 0],
  ]);
});
