import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DEFAULT_PROMPTS } from "../../src/agent/config.ts";
import { OpenAIPolicy, type OpenAIPolicyOptions } from "../../src/policy/openai.ts";
import { Environment } from "../../src/agent/environment.ts";
import { runSample, type SampleOptions } from "../../src/rollout/sample.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import type { TrainableTurns } from "../../src/trajectory/training_view.ts";
import {
  detokenize,
  type FakeOpenAIOptions,
  type FakeScriptEntry,
  type RecordedRequest,
  renderConversation,
  type ServedTokens,
  startFakeOpenAI,
} from "../_fake_openai.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
const TASK_ID = "py-median-even";
const SOLUTION = readFileSync(`${TASKS_DIR}/${TASK_ID}/solution.patch`, "utf8");

/** Averages the middle pair for every input: breaks the visible odd-count test. */
const WRONG_FIX = `--- a/stats/summary.py
+++ b/stats/summary.py
@@ -15,7 +15,7 @@
     if not ordered:
         raise ValueError("median() of an empty sequence")
     middle = len(ordered) // 2
-    return ordered[middle]
+    return (ordered[middle - 1] + ordered[middle]) / 2
 
 
 def summarize(values):
`;

/** From {@linkcode WRONG_FIX} to the right fix. */
const FIX_AFTER_WRONG = `--- a/stats/summary.py
+++ b/stats/summary.py
@@ -15,7 +15,9 @@
     if not ordered:
         raise ValueError("median() of an empty sequence")
     middle = len(ordered) // 2
-    return (ordered[middle - 1] + ordered[middle]) / 2
+    if len(ordered) % 2 == 0:
+        return (ordered[middle - 1] + ordered[middle]) / 2
+    return ordered[middle]
 
 
 def summarize(values):
`;

const INSPECT = { tool_calls: [{ name: "inspect_tree", arguments: {} }] };
const READ = { tool_calls: [{ name: "read_file", arguments: { path: "stats/summary.py" } }] };
const RUN_TESTS = { tool_calls: [{ name: "run_tests", arguments: {} }] };
const SUBMIT = {
  tool_calls: [{
    name: "submit",
    arguments: { status: "solved", summary: "median() averages the middle pair for even input" },
  }],
};

function patchReply(patch: string) {
  return { tool_calls: [{ name: "apply_patch", arguments: { patch } }] };
}

interface SampleRun {
  record: TrajectoryRecord;
  requests: RecordedRequest[];
  served: ServedTokens[];
}

/**
 * Run one sample of the bundled task with an OpenAIPolicy against a fake server answering
 * `script`; the work root and the server are gone afterwards.
 */
async function sample(
  script: FakeScriptEntry[],
  options: {
    policy?: Partial<OpenAIPolicyOptions>;
    fake?: FakeOpenAIOptions;
    sample?: SampleOptions;
  } = {},
): Promise<SampleRun> {
  const workRoot = await Deno.makeTempDir({ prefix: "patchgym-loop-test-" });
  const fake = startFakeOpenAI(script, options.fake);
  try {
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot });
    const policy = new OpenAIPolicy({
      baseUrl: fake.baseUrl,
      model: "fake-model",
      sampling: { temperature: 1, seed: 7 },
      maxRetries: 1,
      backoffMs: 1,
      requestTimeoutMs: 5_000,
      ...options.policy,
    });
    const record = await runSample(env, env.task(TASK_ID), policy, {
      run_id: "run-test",
      episode_id: "episode-0",
      task_id: TASK_ID,
      sample: 0,
      group_id: "group-0",
    }, options.sample);
    return { record, requests: fake.requests, served: fake.served };
  } finally {
    await fake.close();
    await Deno.remove(workRoot, { recursive: true });
  }
}

function toolNames(record: TrajectoryRecord): (string | null)[] {
  return record.turns.map((t) => t.tool?.name ?? null);
}

/** The response ids, loss mask and logprobs the prefix property implies for `served`. */
function expectedResponse(served: ServedTokens[], trainable: TrainableTurns = "all") {
  const response: number[] = [];
  const mask: number[] = [];
  const logprobs: number[] = [];
  const promptLength = served[0].prompt_ids.length;
  served.forEach((turn, i) => {
    const environment = turn.prompt_ids.slice(promptLength + response.length);
    for (const id of environment) {
      response.push(id);
      mask.push(0);
      logprobs.push(0);
    }
    const trained = trainable === "all" || i === served.length - 1;
    turn.completion_ids.forEach((id, j) => {
      response.push(id);
      mask.push(trained ? 1 : 0);
      logprobs.push(trained ? turn.logprobs[j] : 0);
    });
  });
  return { response, mask, logprobs };
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

Deno.test("runSample() records a solved multi-call episode as one trajectory", async () => {
  const { record, requests, served } = await sample([
    INSPECT,
    READ,
    patchReply(SOLUTION),
    RUN_TESTS,
    SUBMIT,
  ]);
  assert.equal(record.format, "patchgym.trajectory.v1");
  assert.equal(record.task_id, TASK_ID);
  assert.deepEqual(record.policy, {
    name: "openai",
    model: "fake-model",
    sampling: { temperature: 1, seed: 7 },
  });
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.error, null);
  assert.deepEqual(record.submission, {
    status: "solved",
    summary: "median() averages the middle pair for even input",
  });
  assert.equal(record.reward?.total, 1);
  assert.equal(record.reward?.resolved, true);
  assert.equal(record.reward?.components.submitted, true);
  assert.equal(record.reward?.components.invalid_tool_calls, 0);
  assert.match(record.final_diff, /\n\+ {4}if len\(ordered\) % 2 == 0:\n/);

  assert.equal(record.turns.length, 5);
  assert.deepEqual(toolNames(record), [
    "inspect_tree",
    "read_file",
    "apply_patch",
    "run_tests",
    "submit",
  ]);
  for (const turn of record.turns) {
    assert.equal(turn.action, "tool_call");
    assert.equal(turn.tool?.ok, true, turn.tool?.output);
    assert.equal(turn.dropped_tool_calls, 0);
    assert.ok(turn.tokens?.completion_ids);
  }
  assert.match(record.turns[0].tool!.output, /stats\/\n.*summary\.py/s);
  assert.match(record.turns[1].tool!.output, /return ordered\[middle\]/);
  assert.deepEqual(record.turns[3].tool!.meta, { exit_code: 0, passed: 3, failed: 0, skipped: 0 });

  const roles = record.messages.map((m) => m.role);
  assert.deepEqual(roles, ["system", "user", ...Array(5).fill(["assistant", "tool"]).flat()]);
  for (let i = 2; i < record.messages.length; i += 2) {
    const assistant = record.messages[i];
    const tool = record.messages[i + 1];
    assert.ok(assistant.role === "assistant" && tool.role === "tool");
    assert.equal(tool.tool_call_id, assistant.tool_calls?.[0].id);
    assert.equal(tool.name, assistant.tool_calls?.[0].function.name);
  }
  // Each request carries the whole conversation so far: one growing trajectory, not five.
  assert.equal(requests.length, 5);
  requests.forEach((request, i) => {
    assert.deepEqual(request.body.messages, record.messages.slice(0, 2 + 2 * i));
    assert.equal(request.body.max_tokens, 4096);
    assert.equal(request.body.seed, 7);
  });

  const { training } = record;
  assert.equal(training.available, true);
  assert.equal(training.reason, null);
  assert.equal(training.token_drift, false);
  assert.deepEqual(training.drift_turns, []);
  assert.equal(training.segments.length, 1);
  const [segment] = training.segments;
  const expected = expectedResponse(served);
  assert.equal(segment.first_turn, 0);
  assert.deepEqual(segment.prompt_ids, served[0].prompt_ids);
  assert.deepEqual(segment.response_ids, expected.response);
  assert.deepEqual(segment.loss_mask, expected.mask);
  assert.deepEqual(segment.rollout_logprobs, expected.logprobs);
  assert.equal(sum(segment.loss_mask), sum(served.map((t) => t.completion_ids.length)));
  // The token sequence is the conversation up to the last reply; the submit result is not in it.
  assert.equal(
    detokenize([...segment.prompt_ids, ...segment.response_ids]),
    renderConversation(record.messages.slice(0, -1)),
  );
  assert.deepEqual(record.usage, {
    prompt_tokens: sum(served.map((t) => t.prompt_ids.length)),
    completion_tokens: sum(served.map((t) => t.completion_ids.length)),
  });
});

Deno.test("runSample() lets the model recover from a wrong fix that fails the tests", async () => {
  const { record } = await sample([
    patchReply(WRONG_FIX),
    RUN_TESTS,
    patchReply(FIX_AFTER_WRONG),
    RUN_TESTS,
    SUBMIT,
  ]);
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns.length, 5);
  const [wrong, failing, fix, passing] = record.turns.map((t) => t.tool!);
  assert.equal(wrong.ok, true);
  assert.deepEqual(failing.meta, { exit_code: 1, passed: 2, failed: 1, skipped: 0 });
  assert.match(failing.output, /\n2 passed, 1 failed\n/);
  assert.match(failing.output, /test_median_odd_count/);
  assert.equal(fix.ok, true, fix.output);
  assert.deepEqual(passing.meta, { exit_code: 0, passed: 3, failed: 0, skipped: 0 });
  assert.equal(record.reward?.total, 1);
  assert.equal(record.reward?.resolved, true);
  assert.equal(record.training.token_drift, false);
});

Deno.test("runSample() nudges a reply without a tool call and counts it as a turn", async () => {
  const { record, requests } = await sample([
    { content: "The median looks wrong; let me think." },
    patchReply(SOLUTION),
    SUBMIT,
  ]);
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns.length, 3);
  assert.equal(record.turns[0].action, "no_tool_call");
  assert.equal(record.turns[0].tool, null);
  assert.equal(record.turns[0].model.content, "The median looks wrong; let me think.");
  assert.equal(record.turns[0].model.finish_reason, "stop");
  assert.deepEqual(record.messages.slice(2, 4), [
    { role: "assistant", content: "The median looks wrong; let me think." },
    { role: "user", content: DEFAULT_PROMPTS.no_tool_call },
  ]);
  assert.deepEqual((requests[1].body.messages as unknown[]).at(-1), {
    role: "user",
    content: DEFAULT_PROMPTS.no_tool_call,
  });
  assert.equal(record.reward?.total, 1);
  assert.equal(record.reward?.components.turns, 3);
  assert.equal(record.training.token_drift, false);
});

Deno.test("runSample() executes only the first of two tool calls in one reply", async () => {
  const { record } = await sample([
    {
      tool_calls: [
        { name: "read_file", arguments: { path: "stats/summary.py" } },
        { name: "run_tests", arguments: {} },
      ],
    },
    patchReply(SOLUTION),
    SUBMIT,
  ]);
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns.length, 3);
  assert.equal(record.turns[0].dropped_tool_calls, 1);
  assert.equal(record.turns[0].tool?.name, "read_file");
  assert.equal(record.turns[0].model.tool_calls?.length, 2);
  assert.deepEqual(
    record.messages.map((m) => m.role),
    ["system", "user", "assistant", "tool", "tool", "assistant", "tool", "assistant", "tool"],
  );
  assert.match(record.messages[3].content!, /return ordered\[middle\]/);
  assert.deepEqual(record.messages[4], {
    role: "tool",
    tool_call_id: "call_fake_0_1",
    name: "run_tests",
    content: DEFAULT_PROMPTS.extra_tool_call,
  });
  assert.equal(record.reward?.total, 1);
  assert.equal(record.training.token_drift, false);
});

Deno.test("runSample() returns malformed tool arguments to the model as invalid_input", async () => {
  const { record } = await sample([
    { tool_calls: [{ name: "read_file", arguments: '{"path": "stats/summary.py"' }] },
    { tool_calls: [{ name: "read_file", arguments: {} }] },
    patchReply(SOLUTION),
    SUBMIT,
  ]);
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns.length, 4);
  const [badJson, missing] = record.turns.map((t) => t.tool!);
  assert.equal(badJson.ok, false);
  assert.equal(badJson.code, "invalid_input");
  assert.equal(badJson.arguments, '{"path": "stats/summary.py"');
  assert.match(
    badJson.output,
    /^Error \[invalid_input\]: Arguments of "read_file" are not valid JSON: .*; send a JSON object$/,
  );
  assert.equal(missing.code, "invalid_input");
  assert.match(
    missing.output,
    /^Error \[invalid_input\]: Invalid arguments for "read_file": path: required field is missing; add it; /,
  );
  assert.equal(record.messages[3].content, badJson.output);
  assert.equal(record.messages[5].content, missing.output);
  assert.equal(record.reward?.components.invalid_tool_calls, 2);
  assert.equal(record.reward?.total, 1);
});

Deno.test("runSample() retries a 429 within the sample and keeps one conversation", async () => {
  const { record, requests } = await sample([
    { status: 429, body: { error: "rate limited" }, headers: { "retry-after": "0" } },
    patchReply(SOLUTION),
    SUBMIT,
  ]);
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns.length, 2);
  assert.equal(requests.length, 3);
  assert.deepEqual(requests[1].body, requests[0].body);
  assert.equal(record.reward?.total, 1);
  assert.equal(record.training.segments.length, 1);
});

Deno.test("runSample() ends as policy_error on a persistent 500 with a complete record", async () => {
  const { record, requests } = await sample([
    patchReply(SOLUTION),
    { status: 500, body: { error: "engine dead" } },
    { status: 500, body: { error: "engine dead" } },
  ], { policy: { maxRetries: 1 } });
  assert.equal(requests.length, 3);
  assert.equal(record.stop_reason, "policy_error");
  assert.equal(record.error?.code, "policy_failed");
  assert.match(record.error!.message, /failed: HTTP 500: .*engine dead/);
  assert.equal(record.turns.length, 1);
  assert.deepEqual(record.messages.map((m) => m.role), ["system", "user", "assistant", "tool"]);
  assert.match(record.final_diff, /\n\+ {4}if len\(ordered\) % 2 == 0:\n/);
  // Grading still runs: the fix was applied, only the submit is missing.
  assert.equal(record.reward?.total, 1);
  assert.equal(record.reward?.components.submitted, false);
  assert.equal(record.submission, null);
  assert.equal(record.training.available, true);
});

Deno.test("runSample() ends as policy_error when a model request times out", async () => {
  const { record, requests } = await sample([
    INSPECT,
    { status: 200, body: { choices: [] }, delayMs: 3_000 },
  ], { policy: { requestTimeoutMs: 200, maxRetries: 0 } });
  assert.equal(requests.length, 2);
  assert.equal(record.stop_reason, "policy_error");
  assert.equal(record.error?.code, "policy_failed");
  assert.match(record.error!.message, /failed: request timed out after 200 ms$/);
  assert.equal(record.turns.length, 1);
  assert.equal(record.messages.length, 4);
  assert.equal(record.final_diff, "");
  assert.equal(record.reward?.total, 0);
  assert.equal(record.reward?.components.submitted, false);
});

Deno.test("runSample() stops at max_turns before asking the model again", async () => {
  const { record, requests } = await sample([INSPECT, READ, SUBMIT], {
    sample: { limits: { max_turns: 2 } },
  });
  assert.equal(requests.length, 2);
  assert.equal(record.stop_reason, "max_turns");
  assert.equal(record.task.max_turns, 2);
  assert.equal(record.turns.length, 2);
  assert.equal(record.error, null);
  assert.equal(record.reward?.total, 0);
  assert.equal(record.reward?.components.submitted, false);
});

const DRIFT_SCRIPT = [INSPECT, READ, patchReply(SOLUTION), SUBMIT];

Deno.test("runSample() flags token drift and splits the training view at the drifting turn", async () => {
  const { record, served } = await sample(DRIFT_SCRIPT, {
    fake: { drift: { turn: 2 } },
    sample: { skipGrading: true },
  });
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.reward, null);
  const { training } = record;
  assert.equal(training.available, true);
  assert.equal(training.token_drift, true);
  assert.deepEqual(training.drift_turns, [2]);
  assert.equal(training.drift_rule, "split");
  assert.deepEqual(training.segments.map((s) => s.first_turn), [0, 2]);
  const [before, after] = training.segments;
  assert.deepEqual(before.prompt_ids, served[0].prompt_ids);
  assert.deepEqual(before.loss_mask, expectedResponse(served.slice(0, 2)).mask);
  assert.deepEqual(after.prompt_ids, served[2].prompt_ids);
  assert.deepEqual(after.loss_mask, expectedResponse(served.slice(2)).mask);
});

Deno.test("runSample() zeroes every loss mask on token drift with onDrift zero_mask", async () => {
  const { record } = await sample(DRIFT_SCRIPT, {
    fake: { drift: { turn: 2 } },
    sample: { skipGrading: true, training: { onDrift: "zero_mask" } },
  });
  const { training } = record;
  assert.equal(training.token_drift, true);
  assert.deepEqual(training.drift_turns, [2]);
  assert.equal(training.drift_rule, "zero_mask");
  assert.equal(training.segments.length, 2);
  for (const segment of training.segments) {
    assert.ok(segment.loss_mask.length > 0);
    assert.ok(segment.loss_mask.every((m) => m === 0));
    assert.ok(segment.rollout_logprobs!.every((l) => l === 0));
  }
});

Deno.test("runSample() trains only the last completion with trainable last", async () => {
  const { record, served } = await sample([INSPECT, patchReply(SOLUTION), SUBMIT], {
    sample: { skipGrading: true, training: { trainable: "last" } },
  });
  const { training } = record;
  assert.equal(training.trainable_turns, "last");
  assert.equal(training.segments.length, 1);
  const expected = expectedResponse(served, "last");
  assert.deepEqual(training.segments[0].loss_mask, expected.mask);
  assert.deepEqual(training.segments[0].rollout_logprobs, expected.logprobs);
  assert.equal(sum(training.segments[0].loss_mask), served[2].completion_ids.length);
});

Deno.test("runSample() records no training view when the server returns no token ids", async () => {
  const { record } = await sample([INSPECT, SUBMIT], {
    fake: { tokenIds: false },
    sample: { skipGrading: true },
  });
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.turns[0].tokens?.prompt_ids, null);
  assert.equal(record.turns[0].tokens?.completion_ids, null);
  assert.ok(record.turns[0].tokens!.logprobs!.length > 0);
  const { training } = record;
  assert.equal(training.available, false);
  assert.match(training.reason!, /^the server returned no token ids for turn 0 /);
  assert.deepEqual(training.segments, []);
});

Deno.test("runSample() runs a text-tool-call policy end to end", async () => {
  const call = (name: string, args: Record<string, unknown>) => ({
    content: `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`,
  });
  const { record, requests, served } = await sample([
    call("read_file", { path: "stats/summary.py" }),
    call("apply_patch", { patch: SOLUTION }),
    call("submit", { status: "solved", summary: "fixed" }),
  ], { policy: { textToolCalls: true } });
  assert.equal(record.stop_reason, "submitted");
  assert.equal(record.reward?.total, 1);
  assert.equal("tools" in requests[0].body, false);
  assert.match(record.messages[0].content!, /# Tools\n.*"name":"apply_patch"/s);
  const assistant = record.messages[2];
  assert.ok(assistant.role === "assistant");
  assert.equal(assistant.tool_calls, undefined);
  assert.match(assistant.content!, /^<tool_call>/);
  assert.equal(record.training.token_drift, false);
  assert.deepEqual(record.training.segments[0].loss_mask, expectedResponse(served).mask);
});
