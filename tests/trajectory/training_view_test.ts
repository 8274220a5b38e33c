import assert from "node:assert/strict";
import type { TurnTokens } from "../../src/policy/types.ts";
import { buildTrainingView, noTokensReason } from "../../src/trajectory/training_view.ts";

function turn(prompt: number[], completion: number[], logprobs?: number[] | null): TurnTokens {
  return {
    prompt_ids: prompt,
    completion_ids: completion,
    logprobs: logprobs === undefined ? completion.map((id) => -id / 100) : logprobs,
  };
}

/** Two turns that keep the prefix property: turn 1's prompt adds tool tokens 6, 7. */
const PREFIX_OK = [turn([1, 2, 3], [4, 5]), turn([1, 2, 3, 4, 5, 6, 7], [8])];

/** Turn 1's prompt re-tokenized token 2 as 9. */
const DRIFTED = [turn([1, 2, 3], [4, 5]), turn([1, 9, 3, 4, 5, 6, 7], [8])];

Deno.test("buildTrainingView() joins turns that keep the prefix property into one segment", () => {
  const view = buildTrainingView(PREFIX_OK);
  assert.deepEqual(view, {
    available: true,
    reason: null,
    token_drift: false,
    drift_turns: [],
    drift_rule: "split",
    trainable_turns: "all",
    segments: [{
      first_turn: 0,
      prompt_ids: [1, 2, 3],
      response_ids: [4, 5, 6, 7, 8],
      loss_mask: [1, 1, 0, 0, 1],
      rollout_logprobs: [-0.04, -0.05, 0, 0, -0.08],
    }],
  });
});

Deno.test("buildTrainingView() leaves its input arrays unchanged", () => {
  const turns = [turn([1, 2, 3], [4, 5]), turn([1, 2, 3, 4, 5, 6], [7])];
  const copy = structuredClone(turns);
  const view = buildTrainingView(turns, { onDrift: "zero_mask" });
  view.segments[0].prompt_ids.push(99);
  assert.deepEqual(turns, copy);
});

Deno.test("buildTrainingView() starts a new segment at a drifting turn with onDrift split", () => {
  const view = buildTrainingView(DRIFTED);
  assert.equal(view.available, true);
  assert.equal(view.token_drift, true);
  assert.deepEqual(view.drift_turns, [1]);
  assert.deepEqual(view.segments, [
    {
      first_turn: 0,
      prompt_ids: [1, 2, 3],
      response_ids: [4, 5],
      loss_mask: [1, 1],
      rollout_logprobs: [-0.04, -0.05],
    },
    {
      first_turn: 1,
      prompt_ids: [1, 9, 3, 4, 5, 6, 7],
      response_ids: [8],
      loss_mask: [1],
      rollout_logprobs: [-0.08],
    },
  ]);
});

Deno.test("buildTrainingView() counts a prompt shorter than the sequence so far as drift", () => {
  // A chat template that drops the previous completion's last tokens from the history.
  const view = buildTrainingView([turn([1, 2, 3], [4, 5]), turn([1, 2, 3, 4], [6])]);
  assert.deepEqual(view.drift_turns, [1]);
  assert.deepEqual(view.segments.map((s) => s.first_turn), [0, 1]);
});

Deno.test("buildTrainingView() continues the new segment after a drift", () => {
  const view = buildTrainingView([
    ...DRIFTED,
    turn([1, 9, 3, 4, 5, 6, 7, 8, 10], [11, 12]),
  ]);
  assert.deepEqual(view.drift_turns, [1]);
  assert.equal(view.segments.length, 2);
  assert.deepEqual(view.segments[1].response_ids, [8, 10, 11, 12]);
  assert.deepEqual(view.segments[1].loss_mask, [1, 0, 1, 1]);
});

Deno.test("buildTrainingView() zeroes every mask and logprob on drift with onDrift zero_mask", () => {
  // Guards the bug where zero_mask left nonzero logprobs under a zero mask.
  const view = buildTrainingView(DRIFTED, { onDrift: "zero_mask" });
  assert.equal(view.token_drift, true);
  assert.equal(view.drift_rule, "zero_mask");
  assert.deepEqual(view.drift_turns, [1]);
  assert.deepEqual(view.segments.map((s) => s.response_ids), [[4, 5], [8]]);
  assert.deepEqual(view.segments.map((s) => s.loss_mask), [[0, 0], [0]]);
  assert.deepEqual(view.segments.map((s) => s.rollout_logprobs), [[0, 0], [0]]);
});

Deno.test("buildTrainingView() keeps masks without drift under onDrift zero_mask", () => {
  const view = buildTrainingView(PREFIX_OK, { onDrift: "zero_mask" });
  assert.equal(view.token_drift, false);
  assert.deepEqual(view.segments[0].loss_mask, [1, 1, 0, 0, 1]);
});

Deno.test("buildTrainingView() masks all but the last completion with trainable last", () => {
  const view = buildTrainingView(
    [...PREFIX_OK, turn([1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11])],
    { trainable: "last" },
  );
  assert.equal(view.trainable_turns, "last");
  assert.equal(view.segments.length, 1);
  assert.deepEqual(view.segments[0].response_ids, [4, 5, 6, 7, 8, 9, 10, 11]);
  assert.deepEqual(view.segments[0].loss_mask, [0, 0, 0, 0, 0, 0, 1, 1]);
  assert.deepEqual(view.segments[0].rollout_logprobs, [0, 0, 0, 0, 0, 0, -0.1, -0.11]);
});

Deno.test("buildTrainingView() names a policy that makes no tokens as the reason", () => {
  const view = buildTrainingView([null], { policy: "scripted" });
  assert.equal(view.available, false);
  assert.match(view.reason!, /^the scripted policy makes no tokens \(it plays a script/);
  assert.equal(noTokensReason("openai"), null);
});

Deno.test("buildTrainingView() is unavailable when a turn has no token ids", () => {
  for (const missing of [null, { prompt_ids: null, completion_ids: [8], logprobs: [-0.1] }]) {
    const view = buildTrainingView([PREFIX_OK[0], missing]);
    assert.equal(view.available, false);
    assert.match(
      view.reason!,
      /^the server returned no token ids for turn 1 .*does not re-tokenize$/,
    );
    assert.equal(view.token_drift, false);
    assert.deepEqual(view.segments, []);
  }
});

Deno.test("buildTrainingView() is unavailable without model turns", () => {
  const view = buildTrainingView([]);
  assert.equal(view.available, false);
  assert.equal(view.reason, "no model turns");
});

Deno.test("buildTrainingView() gives null rollout_logprobs when a turn lacks logprobs", () => {
  const cases = [
    [PREFIX_OK[0], turn([1, 2, 3, 4, 5, 6, 7], [8], null)],
    // One logprob for two completion tokens cannot be aligned.
    [turn([1, 2, 3], [4, 5], [-0.1]), PREFIX_OK[1]],
  ];
  for (const turns of cases) {
    const view = buildTrainingView(turns);
    assert.equal(view.available, true);
    assert.equal(view.segments[0].rollout_logprobs, null);
    assert.deepEqual(view.segments[0].loss_mask, [1, 1, 0, 0, 1]);
  }
});
