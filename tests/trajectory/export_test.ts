import assert from "node:assert/strict";
import type { TurnTokens } from "../../src/policy/types.ts";
import {
  ATROPOS_IGNORE,
  exportTrajectories,
  toAtropos,
  toSft,
  toVerl,
} from "../../src/trajectory/export.ts";
import { fakeRecord as record, TOOLS } from "./_records.ts";

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

function parseLines(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line));
}

Deno.test("toVerl() packs each segment with its mask, logprobs, reward and group uid", () => {
  assert.deepEqual(toVerl(SOLVED), [{
    prompt_ids: [1, 2, 3],
    response_ids: [10, 11, 20, 21, 12],
    response_mask: [1, 1, 0, 0, 1],
    rollout_log_probs: [-0.1, -0.2, 0, 0, -0.3],
    reward: 1,
    uid: "g1",
    episode_id: "e1",
    task_id: "task-g1",
    token_drift: false,
  }]);
  const drifted = toVerl(DRIFTED);
  assert.equal(drifted.length, 2);
  assert.ok(drifted.every((row) => row.token_drift && row.rollout_log_probs === null));
  assert.deepEqual(toVerl(NO_TOKENS), []);
});

Deno.test("exportTrajectories() verl skips records without tokens or reward and warns", () => {
  const result = exportTrajectories(ALL, "verl");
  const rows = parseLines(result.lines);
  assert.deepEqual(rows.map((r) => r.episode_id), ["e2", "e1", "e4", "e4"]);
  assert.equal(result.records, 5);
  assert.equal(result.kept, 5);
  assert.equal(result.warnings.length, 2);
  assert.match(result.warnings[0], /^Skipped 1 of 5 records without a reward/);
  assert.match(
    result.warnings[1],
    /^Skipped 1 of 4 records without a token view \(first reason: the server returned no token ids/,
  );
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
  assert.deepEqual(parseLines(result.lines).map((g) => Object.keys(g)), [
    ["group_id", "task_id", "tokens", "masks", "scores", "messages"],
    ["group_id", "task_id", "scores", "messages"],
  ]);
  assert.match(result.warnings[1], /^1 of 2 groups have a sample without a single token sequence/);
});

Deno.test("exportTrajectories() sft writes messages and tools for every record", () => {
  const result = exportTrajectories(ALL, "sft");
  assert.deepEqual(result.warnings, []);
  assert.deepEqual(parseLines(result.lines), ALL.map(toSft));
  assert.deepEqual(Object.keys(JSON.parse(result.lines[0])), ["messages", "tools"]);
  assert.deepEqual(JSON.parse(result.lines[0]).tools, TOOLS);
});

Deno.test("exportTrajectories() onlySuccessful keeps resolved records in every format", () => {
  const sft = exportTrajectories(ALL, "sft", { onlySuccessful: true });
  assert.equal(sft.kept, 2);
  assert.deepEqual(parseLines(sft.lines).map((r) => r.messages), [
    SOLVED.messages,
    NO_TOKENS.messages,
  ]);
  const verl = exportTrajectories(ALL, "verl", { onlySuccessful: true });
  assert.deepEqual(parseLines(verl.lines).map((r) => r.episode_id), ["e1"]);
  assert.match(verl.warnings[0], /^Skipped 1 of 2 records without a token view/);
  const atropos = exportTrajectories(ALL, "atropos", { onlySuccessful: true });
  assert.deepEqual(parseLines(atropos.lines).map((g) => [g.group_id, g.scores]), [["g1", [1]], [
    "g2",
    [1],
  ]]);
});
