import assert from "node:assert/strict";
import { qwen3, renderQwen3 } from "../_qwen3_server.ts";
import type { TurnTokens } from "../../src/policy/types.ts";
import {
  ATROPOS_IGNORE,
  type AtroposGroup,
  exportTrajectories,
  type SftRow,
  type SkyrlRow,
  toAtropos,
  toSft,
  toVerl,
  type VerlRow,
} from "../../src/trajectory/export.ts";
import { buildTrainingView } from "../../src/trajectory/training_view.ts";
import { fakeRecord as record, qwen3Conversation, TOOLS } from "./_records.ts";

/** Two turns that extend each other: tool tokens 20, 21 sit between the model's tokens. */
const CLEAN_TURNS: TurnTokens[] = [
  { prompt_ids: [1, 2, 3], completion_ids: [10, 11], logprobs: [-0.1, -0.2] },
  { prompt_ids: [1, 2, 3, 10, 11, 20, 21], completion_ids: [12], logprobs: [-0.3] },
];

/** The second prompt does not extend the first sequence: token drift, split into two segments. */
const DRIFT_TURNS: TurnTokens[] = [
  { prompt_ids: [1, 2], completion_ids: [30], logprobs: null },
  { prompt_ids: [9, 9, 9], completion_ids: [31], logprobs: null },
];

const SOLVED = record({
  episode: "e1",
  group: "g1",
  sample: 0,
  resolved: true,
  tokens: CLEAN_TURNS,
});
const FAILED = record({
  episode: "e2",
  group: "g1",
  sample: 1,
  resolved: false,
  tokens: [{ prompt_ids: [1, 2, 3], completion_ids: [40], logprobs: [-0.5] }],
});
const NO_TOKENS = record({ episode: "e3", group: "g2", sample: 0, resolved: true, tokens: [null] });
const DRIFTED = record({
  episode: "e4",
  group: "g2",
  sample: 1,
  resolved: false,
  tokens: DRIFT_TURNS,
});
const UNGRADED = record({
  episode: "e5",
  group: "g3",
  sample: 0,
  resolved: null,
  tokens: CLEAN_TURNS,
});
// FAILED first: groups must come out in sample order, not input order.
const ALL = [FAILED, SOLVED, NO_TOKENS, DRIFTED, UNGRADED];

Deno.test("toVerl() builds verl's AgentLoopOutput field for field", () => {
  assert.deepEqual(toVerl(SOLVED), [{
    prompt_ids: [1, 2, 3],
    response_ids: [10, 11, 20, 21, 12],
    response_mask: [1, 1, 0, 0, 1],
    response_logprobs: [-0.1, -0.2, 0, 0, -0.3],
    routed_experts: null,
    multi_modal_data: null,
    reward_score: 1,
    num_turns: 1,
    metrics: { generate_sequences: 0.001, tool_calls: 0.001, num_preempted: -1 },
    extra_fields: {
      uid: "g1",
      episode_id: "e1",
      task_id: "task-g1",
      sample: 0,
      segment_index: 0,
      segment_count: 1,
      is_last_step: true,
      token_drift: false,
      stop_reason: "submitted",
    },
  }]);
  // verl's AgentLoopOutput (verl/experimental/agent_loop/agent_loop.py at b178a3cd).
  assert.deepEqual(Object.keys(toVerl(SOLVED)[0]), [
    "prompt_ids",
    "response_ids",
    "response_mask",
    "response_logprobs",
    "routed_experts",
    "multi_modal_data",
    "reward_score",
    "num_turns",
    "metrics",
    "extra_fields",
  ]);
  assert.deepEqual(toVerl(NO_TOKENS), []);
});

Deno.test("toVerl() writes one row per split episode, or every segment marked with segments all", () => {
  const last = toVerl(DRIFTED);
  assert.equal(last.length, 1);
  assert.deepEqual(last[0].response_ids, [31]);
  assert.equal(last[0].response_logprobs, null);
  const all = toVerl(DRIFTED, "all");
  assert.deepEqual(
    all.map((
      r,
    ) => [
      r.response_ids,
      r.extra_fields.segment_index,
      r.extra_fields.segment_count,
      r.extra_fields.is_last_step,
    ]),
    [
      [[30], 0, 2, false],
      [[31], 1, 2, true],
    ],
  );
  assert.ok(all.every((r) => r.extra_fields.token_drift));
});

/** A sample whose every turn drifts: one segment per turn. */
function splitSample(episode: string, sample: number, turns: number, resolved: boolean) {
  const tokens = Array.from({ length: turns }, (_, i) => ({
    prompt_ids: [100 + i],
    completion_ids: [i + 1],
    logprobs: [-0.5],
  }));
  return record({ episode, group: "g", sample, resolved, tokens });
}

/** GRPO's baseline per group, from rows with a reward and a group (the last step's, when marked). */
function grpoBaselines(rows: { reward: number; uid: string }[]): Record<string, number> {
  const sums: Record<string, [number, number]> = {};
  for (const { reward, uid } of rows) {
    const [s, n] = sums[uid] ?? [0, 0];
    sums[uid] = [s + reward, n + 1];
  }
  return Object.fromEntries(Object.entries(sums).map(([uid, [s, n]]) => [uid, s / n]));
}

Deno.test("exportTrajectories() verl weighs every GRPO sample once after a split", () => {
  // Guards issue 11: rewards 1 and 0 over four and three split turns gave a baseline of 0.571.
  const records = [splitSample("a", 0, 4, true), splitSample("b", 1, 3, false)];
  const rows = exportTrajectories(records, "verl").rows as unknown as VerlRow[];
  assert.deepEqual(rows.map((r) => r.extra_fields.episode_id), ["a", "b"]);
  assert.deepEqual(
    grpoBaselines(rows.map((r) => ({ reward: r.reward_score, uid: r.extra_fields.uid }))),
    { g: 0.5 },
  );
  const stepwise = exportTrajectories(records, "verl", { segments: "all" })
    .rows as unknown as VerlRow[];
  assert.equal(stepwise.length, 7);
  const lastSteps = stepwise.filter((r) => r.extra_fields.is_last_step);
  assert.deepEqual(lastSteps.map((r) => r.extra_fields.episode_id), ["a", "b"]);
  assert.deepEqual(
    grpoBaselines(lastSteps.map((r) => ({ reward: r.reward_score, uid: r.extra_fields.uid }))),
    { g: 0.5 },
  );
  // Without the flag a trainer would count a four times and b three times.
  assert.notDeepEqual(
    grpoBaselines(stepwise.map((r) => ({ reward: r.reward_score, uid: r.extra_fields.uid }))),
    { g: 0.5 },
  );
});

Deno.test("exportTrajectories() skyrl writes GeneratorOutput elements with step-wise fields", () => {
  const records = [SOLVED, splitSample("b", 1, 2, false)];
  const rows = exportTrajectories(records, "skyrl", { segments: "all" })
    .rows as unknown as SkyrlRow[];
  const { uid: _, ...fieldsOfSolved } = toVerl(SOLVED)[0].extra_fields;
  assert.deepEqual(rows[0], {
    prompt_token_ids: [1, 2, 3],
    response_ids: [10, 11, 20, 21, 12],
    rewards: 1,
    loss_masks: [1, 1, 0, 0, 1],
    stop_reasons: "submitted",
    rollout_logprobs: [-0.1, -0.2, 0, 0, -0.3],
    trajectory_ids: { instance_id: "g1", repetition_id: 0 },
    is_last_step: true,
    env_metrics: fieldsOfSolved,
  });
  assert.deepEqual(rows.slice(1).map((r) => [r.rewards, r.is_last_step, r.trajectory_ids]), [
    [0, false, { instance_id: "g", repetition_id: 1 }],
    [0, true, { instance_id: "g", repetition_id: 1 }],
  ]);
});

Deno.test("exportTrajectories() skips episodes without a loss token and counts them", () => {
  const zeroed = record({
    episode: "z",
    group: "g1",
    sample: 2,
    resolved: false,
    tokens: DRIFT_TURNS,
  });
  zeroed.training = buildTrainingView(DRIFT_TURNS, { onDrift: "zero_mask" });
  const result = exportTrajectories([SOLVED, zeroed], "verl");
  assert.deepEqual(
    result.rows.map((r) => (r as unknown as VerlRow).extra_fields.episode_id),
    ["e1"],
  );
  assert.match(result.warnings[0], /^Skipped 1 of 2 episodes with no loss token/);
  assert.equal(result.loss_tokens, 3);
  assert.equal(result.refusal, null);
  const empty = exportTrajectories([zeroed], "verl");
  assert.equal(empty.rows.length, 0);
  assert.equal(empty.refusal?.code, "no_loss_tokens");
});

Deno.test("exportTrajectories() refuses a token format over records without token ids", () => {
  for (const format of ["verl", "skyrl"] as const) {
    const result = exportTrajectories([NO_TOKENS], format);
    assert.equal(result.refusal?.code, "no_token_ids");
    assert.match(
      result.refusal!.message,
      new RegExp(`^Cannot export ${format}: it needs token ids`),
    );
  }
  assert.equal(exportTrajectories([NO_TOKENS], "sft").refusal, null);
});

// Issue 25: export on a reference-policy run blamed a server that was never used.
Deno.test("exportTrajectories() says the reference policy makes no tokens and which policy does", () => {
  const reference = { ...NO_TOKENS, policy: { name: "reference", model: null, sampling: {} } };
  const result = exportTrajectories([reference], "verl");
  assert.equal(result.refusal?.code, "no_token_ids");
  assert.match(
    result.refusal!.message,
    /^Cannot export verl: it needs token ids, and the reference policy makes no tokens \(it replays each task's reference patch\); token ids come from the openai policy with a model server/,
  );
  assert.doesNotMatch(result.refusal!.message, /the server returned/);
});

Deno.test("exportTrajectories() verl skips records without tokens or reward and warns", () => {
  const result = exportTrajectories(ALL, "verl");
  const rows = result.rows as unknown as VerlRow[];
  assert.deepEqual(rows.map((r) => r.extra_fields.episode_id), ["e2", "e1", "e4"]);
  assert.equal(result.records, 5);
  assert.equal(result.kept, 5);
  assert.equal(result.warnings.length, 3);
  assert.match(result.warnings[0], /^Skipped 1 of 5 records without a reward/);
  assert.match(
    result.warnings[1],
    /^Skipped 1 of 4 records have no token view \(first reason: the scripted policy makes no tokens/,
  );
  assert.match(result.warnings[2], /^Left out 1 earlier segments of split episodes/);
});

Deno.test("toAtropos() builds one scored group per group_id with -100 masks", () => {
  const groups = toAtropos(ALL);
  assert.deepEqual(groups.map((g) => g.group_id), ["g1", "g2"]);
  const [g1, g2] = groups;
  assert.equal(g1.task_id, "task-g1");
  assert.deepEqual(g1.scores, [1, 0]);
  assert.deepEqual(g1.tokens, [[1, 2, 3, 10, 11, 20, 21, 12], [1, 2, 3, 40]]);
  const I = ATROPOS_IGNORE;
  assert.deepEqual(g1.masks, [[I, I, I, 10, 11, I, I, 12], [I, I, I, 40]]);
  assert.deepEqual(g1.messages, [SOLVED.messages, FAILED.messages]);
  // g2 has a sample without tokens and one split by drift: scores and messages only.
  assert.deepEqual(g2.scores, [1, 0]);
  assert.equal(g2.tokens, undefined);
  assert.equal(g2.masks, undefined);
  assert.equal(g2.messages.length, 2);
  const result = exportTrajectories(ALL, "atropos");
  assert.deepEqual(result.rows.map((g) => Object.keys(g)), [
    ["group_id", "task_id", "tokens", "masks", "scores", "messages"],
    ["group_id", "task_id", "scores", "messages"],
  ]);
  assert.match(result.warnings[1], /^1 of 2 groups have a sample without a single token sequence/);
});

Deno.test("exportTrajectories() sft writes messages and tools for every record", () => {
  const result = exportTrajectories(ALL, "sft");
  assert.deepEqual(result.warnings, []);
  assert.deepEqual(result.rows, ALL.map((r) => toSft(r)));
  assert.deepEqual(Object.keys(result.rows[0] as SftRow), ["messages", "tools"]);
  assert.deepEqual((result.rows[0] as SftRow).tools, TOOLS);
});

Deno.test("exportTrajectories() onlySuccessful keeps resolved records in every format", () => {
  const sft = exportTrajectories(ALL, "sft", { onlySuccessful: true });
  assert.equal(sft.kept, 2);
  assert.deepEqual((sft.rows as SftRow[]).map((r) => r.messages), [
    toSft(SOLVED).messages,
    toSft(NO_TOKENS).messages,
  ]);
  const verl = exportTrajectories(ALL, "verl", { onlySuccessful: true });
  assert.deepEqual(
    verl.rows.map((r) => (r as unknown as VerlRow).extra_fields.episode_id),
    ["e1"],
  );
  assert.match(verl.warnings[0], /^Skipped 1 of 2 records have no token view/);
  const atropos = exportTrajectories(ALL, "atropos", { onlySuccessful: true });
  assert.deepEqual((atropos.rows as AtroposGroup[]).map((g) => [g.group_id, g.scores]), [["g1", [
    1,
  ]], [
    "g2",
    [1],
  ]]);
});

Deno.test("toSft() renders back to the generated tokens with the model's template", async () => {
  const { record, generated } = await qwen3Conversation(SOLVED);
  const row = exportTrajectories([record], "sft").rows[0] as SftRow;
  const rendered = qwen3().encode(
    renderQwen3(row.messages, { tools: row.tools, generation: false }),
  );
  assert.deepEqual(rendered.slice(0, generated.length), generated);
  // What the record keeps apart (reasoning beside the content) would not render them.
  const apart = record.messages.map((m) =>
    m.role === "assistant" ? { ...m, reasoning_content: undefined } : m
  );
  const lost = qwen3().encode(renderQwen3(apart, { tools: row.tools, generation: false }));
  assert.notDeepEqual(lost.slice(0, generated.length), generated);
});

Deno.test('toSft() gives a tool-call-only reply "" content, as vLLM renders it', () => {
  const [, , reply] = toSft(SOLVED).messages;
  assert.equal(SOLVED.messages[2].content, null);
  assert.equal(reply.content, "");
});

Deno.test("exportTrajectories() sft toolArguments object parses arguments and counts the rest", () => {
  const garbled = record({
    episode: "e9",
    group: "g9",
    sample: 0,
    resolved: true,
    tokens: [null],
    overrides: {
      messages: [...SOLVED.messages.slice(0, 2), {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "submit", arguments: '{"status":' } },
          { id: "b", type: "function", function: { name: "submit", arguments: "[1]" } },
        ],
      }],
    },
  });
  const result = exportTrajectories([SOLVED, garbled], "sft", { toolArguments: "object" });
  const calls = (result.rows as SftRow[]).map((row) =>
    row.messages.flatMap((m) => m.role === "assistant" ? m.tool_calls ?? [] : [])
      .map((c) => c.function.arguments)
  );
  assert.deepEqual(calls, [[{ status: "solved" }], ['{"status":', "[1]"]]);
  assert.deepEqual(result.warnings, [
    "Kept 2 tool calls' arguments as the text the model wrote: not a JSON object",
  ]);
});

Deno.test("exportTrajectories() never exports an impossible sample", () => {
  // Issue 27: an impossible sample measures the grader; its reward is never training data.
  const impossible = {
    ...FAILED,
    episode_id: "e3",
    reward: { ...FAILED.reward!, impossible: true as const },
  };
  for (const format of ["verl", "sft"] as const) {
    const rows = exportTrajectories([SOLVED, impossible], format).rows;
    assert.equal(rows.length, 1, format);
  }
});
