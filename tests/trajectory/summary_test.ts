import assert from "node:assert/strict";
import type { TurnTokens } from "../../src/policy/types.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import { formatTraining, summarize, summarizeTraining } from "../../src/trajectory/summary.ts";
import { buildTrainingView, type TrainingViewOptions } from "../../src/trajectory/training_view.ts";

/** A record with just what the summary reads. */
function sample(
  tokens: (TurnTokens | null)[],
  options: TrainingViewOptions = {},
): TrajectoryRecord {
  return {
    task_id: "t",
    turns: tokens.map(() => ({})),
    stop_reason: "submitted",
    reward: { total: 1, resolved: true },
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    timings: { wall_ms: 1 },
    training: buildTrainingView(tokens, options),
  } as unknown as TrajectoryRecord;
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
