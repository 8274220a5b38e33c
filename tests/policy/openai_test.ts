import assert from "node:assert/strict";
import { buildTrainingView } from "../../src/trajectory/training_view.ts";
import { startQwen3Server } from "../_qwen3_server.ts";
import { converse, PLAIN_OUTPUTS, THINKING_OUTPUTS } from "../_conversation.ts";
import { PolicyError } from "../../src/errors.ts";
import { OpenAIPolicy, type OpenAIPolicyOptions } from "../../src/policy/openai.ts";
import type { ChatMessage, PolicyRequest } from "../../src/policy/types.ts";
import { toolSchemas } from "../../src/tools/registry.ts";
import { type FakeOpenAI, type FakeScriptEntry, startFakeOpenAI } from "../_fake_openai.ts";

const CONVERSATION: ChatMessage[] = [
  { role: "system", content: "You fix bugs." },
  { role: "user", content: "Fix median()" },
];

/** Run `fn` with a fake server answering `script` and a policy pointed at it. */
async function withPolicy(
  script: FakeScriptEntry[],
  options: Partial<OpenAIPolicyOptions>,
  fn: (policy: OpenAIPolicy, fake: FakeOpenAI) => Promise<void>,
): Promise<void> {
  const fake = startFakeOpenAI(script);
  try {
    const policy = new OpenAIPolicy({
      baseUrl: fake.baseUrl,
      model: "fake-model",
      maxRetries: 2,
      backoffMs: 1,
      requestTimeoutMs: 5_000,
      ...options,
    });
    await fn(policy, fake);
  } finally {
    await fake.close();
  }
}

function request(messages: ChatMessage[] = CONVERSATION): PolicyRequest {
  return { messages, tools: toolSchemas(), maxTokens: 512 };
}

/** The PolicyError `promise` rejects with. */
async function policyError(promise: Promise<unknown>): Promise<PolicyError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PolicyError, `expected a PolicyError, got ${error}`);
    assert.equal(error.code, "policy_failed");
    return error;
  }
  assert.fail("expected the request to fail");
}

Deno.test("OpenAIPolicy.next() sends tools, sampling, logprobs and token-id requests", async () => {
  const history: ChatMessage[] = [
    ...CONVERSATION,
    {
      role: "assistant",
      content: null,
      reasoning_content: "look first",
      tool_calls: [{
        id: "call_a",
        type: "function",
        function: { name: "inspect_tree", arguments: "{}" },
      }],
    },
    { role: "tool", tool_call_id: "call_a", name: "inspect_tree", content: "./\n  stats/" },
  ];
  await withPolicy(
    [{ tool_calls: [{ name: "read_file", arguments: { path: "stats/summary.py" } }] }],
    { apiKey: "sk-test", sampling: { temperature: 0.7, top_p: 0.95, seed: 42 } },
    async (policy, fake) => {
      await policy.next(request(history));
      assert.equal(fake.requests.length, 1);
      const { path, headers, body } = fake.requests[0];
      assert.equal(path, "/v1/chat/completions");
      assert.equal(headers.get("authorization"), "Bearer sk-test");
      assert.equal(headers.get("content-type"), "application/json");
      assert.equal(body.model, "fake-model");
      assert.deepEqual(body.tools, toolSchemas());
      assert.equal(body.tool_choice, "auto");
      assert.equal(body.max_tokens, 512);
      assert.equal(body.temperature, 0.7);
      assert.equal(body.top_p, 0.95);
      assert.equal(body.seed, 42);
      assert.equal(body.logprobs, true);
      assert.equal(body.return_token_ids, true);
      assert.equal(body.return_prompt_token_ids, true);
      assert.equal(body.return_meta_info, true);
      assert.equal(body.n, 1);
      assert.equal(body.stream, false);
      const { reasoning_content: _, ...wireAssistant } = history[2] as Extract<
        ChatMessage,
        { role: "assistant" }
      >;
      // The reasoning goes back folded into the content, so the template re-renders it.
      assert.deepEqual(body.messages, [
        ...CONVERSATION,
        { ...wireAssistant, content: "<think>look first</think>" },
        history[3],
      ]);
      assert.ok(!JSON.stringify(body.messages).includes("reasoning_content"));
      assert.equal(policy.name, "openai");
      assert.deepEqual(policy.sampling, { temperature: 0.7, top_p: 0.95, seed: 42 });
    },
  );
});

Deno.test("OpenAIPolicy.next() sends no tools and no Authorization in text mode", async () => {
  await withPolicy(
    [{ content: '<tool_call>{"name": "inspect_tree", "arguments": {}}</tool_call>' }],
    { textToolCalls: true },
    async (policy, fake) => {
      await policy.next(request());
      const { headers, body } = fake.requests[0];
      assert.equal(headers.get("authorization"), null);
      assert.equal("tools" in body, false);
      assert.equal("tool_choice" in body, false);
      assert.equal(body.logprobs, true);
      assert.equal(body.return_token_ids, true);
    },
  );
});

Deno.test("OpenAIPolicy.next() leaves out logprobs and token ids when turned off", async () => {
  await withPolicy(
    [{ content: "hi" }],
    { logprobs: false, returnTokenIds: false, extraBody: { chat_template_kwargs: { x: 1 } } },
    async (policy, fake) => {
      const turn = await policy.next({ messages: CONVERSATION, tools: [] });
      const { body } = fake.requests[0];
      assert.equal("logprobs" in body, false);
      assert.equal("return_token_ids" in body, false);
      assert.equal("max_tokens" in body, false);
      assert.deepEqual(body.chat_template_kwargs, { x: 1 });
      assert.equal(turn.tokens, null);
      assert.deepEqual(turn.usage, {
        prompt_tokens: fake.served[0].prompt_ids.length,
        completion_tokens: 3,
      });
    },
  );
});

Deno.test("OpenAIPolicy.next() does not ask api.openai.com for token ids", async () => {
  const fake = startFakeOpenAI([{ content: "hi" }]);
  try {
    const seen: string[] = [];
    const policy = new OpenAIPolicy({
      baseUrl: "https://api.openai.com/v1/",
      model: "gpt-test",
      fetch: (input, init) => {
        seen.push(String(input));
        return fetch(String(input).replace("https://api.openai.com/v1", fake.baseUrl), init);
      },
    });
    await policy.next(request());
    assert.deepEqual(seen, ["https://api.openai.com/v1/chat/completions"]);
    assert.equal("return_token_ids" in fake.requests[0].body, false);
    assert.equal(fake.requests[0].body.logprobs, true);
  } finally {
    await fake.close();
  }
});

Deno.test("OpenAIPolicy.next() returns native tool calls, reasoning and finish reason", async () => {
  await withPolicy(
    [{
      content: "Reading the module",
      reasoning: "median is in stats",
      tool_calls: [{ name: "read_file", arguments: { path: "stats/summary.py" }, id: "call_x" }],
    }],
    {},
    async (policy) => {
      const turn = await policy.next(request());
      const call = {
        id: "call_x",
        type: "function",
        function: { name: "read_file", arguments: '{"path":"stats/summary.py"}' },
      };
      assert.deepEqual(turn.calls, [call]);
      assert.deepEqual(turn.message, {
        role: "assistant",
        content: "Reading the module",
        tool_calls: [call],
        reasoning_content: "median is in stats",
      });
      assert.deepEqual(turn.raw, {
        content: "Reading the module",
        reasoning: "median is in stats",
        tool_calls: [call],
      });
      assert.deepEqual(turn.parse_errors, []);
      assert.equal(turn.finish_reason, "tool_calls");
      assert.ok(turn.latency_ms >= 0);
    },
  );
});

Deno.test("OpenAIPolicy.next() stringifies object arguments and names calls without an id", async () => {
  const body = {
    choices: [{
      message: {
        content: null,
        tool_calls: [{
          function: { name: "run_tests", arguments: { selector: "tests/test_summary.py" } },
        }],
      },
      finish_reason: "tool_calls",
    }],
  };
  await withPolicy([{ status: 200, body }], {}, async (policy) => {
    const turn = await policy.next(request());
    assert.deepEqual(turn.calls, [{
      id: "call_0_0",
      type: "function",
      function: { name: "run_tests", arguments: '{"selector":"tests/test_summary.py"}' },
    }]);
    assert.equal(turn.tokens, null);
    assert.equal(turn.usage, null);
  });
});

Deno.test("OpenAIPolicy.next() records token ids and logprobs in turn.tokens", async () => {
  await withPolicy(
    [{ tool_calls: [{ name: "inspect_tree", arguments: {} }] }],
    {},
    async (policy, fake) => {
      const turn = await policy.next(request());
      const served = fake.served[0];
      assert.ok(served.completion_ids.length > 0);
      assert.deepEqual(turn.tokens, {
        prompt_ids: served.prompt_ids,
        completion_ids: served.completion_ids,
        logprobs: served.logprobs,
      });
      assert.deepEqual(turn.usage, {
        prompt_tokens: served.prompt_ids.length,
        completion_tokens: served.completion_ids.length,
      });
    },
  );
});

Deno.test("OpenAIPolicy.next() parses text-mode tool calls and keeps the content raw", async () => {
  const content =
    '<think>The bug is in median</think>\nLet me read it.\n<tool_call>{"name": "read_file", "arguments": {"path": "stats/summary.py"}}</tool_call>';
  await withPolicy([{ content }], { textToolCalls: true }, async (policy) => {
    const turn = await policy.next(request());
    assert.deepEqual(turn.calls, [{
      id: "call_0_0",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"stats/summary.py"}' },
    }]);
    // The history must re-render the same tokens: the raw text, no native tool_calls.
    assert.deepEqual(turn.message, {
      role: "assistant",
      content,
      reasoning_content: "The bug is in median",
    });
    assert.equal(turn.raw.content, content);
    assert.equal(turn.raw.tool_calls, null);
    assert.deepEqual(turn.parse_errors, []);
  });
});

Deno.test("OpenAIPolicy.next() reports unreadable text tool calls as parse errors", async () => {
  await withPolicy(
    [{ content: '<tool_call>{"name": "read_file", "arguments": </tool_call>' }],
    { textToolCalls: true },
    async (policy) => {
      const turn = await policy.next(request());
      assert.deepEqual(turn.calls, []);
      assert.equal(turn.parse_errors.length, 1);
      assert.match(turn.parse_errors[0], /^Cannot parse tool call: /);
    },
  );
});

Deno.test("OpenAIPolicy.next() retries a 429 after its Retry-After", async () => {
  await withPolicy(
    [
      { status: 429, body: { error: "slow down" }, headers: { "retry-after": "0" } },
      { tool_calls: [{ name: "inspect_tree", arguments: {} }] },
    ],
    { maxRetries: 1, backoffMs: 60_000 },
    async (policy, fake) => {
      const started = performance.now();
      const turn = await policy.next(request());
      // Retry-After: 0 overrides the (huge) backoff.
      assert.ok(performance.now() - started < 5_000);
      assert.equal(turn.calls[0].function.name, "inspect_tree");
      assert.equal(fake.requests.length, 2);
      assert.deepEqual(fake.requests[1].body, fake.requests[0].body);
    },
  );
});

Deno.test("OpenAIPolicy.next() fails with PolicyError after maxRetries + 1 server errors", async () => {
  const errors = Array.from({ length: 3 }, () => ({ status: 500, body: { error: "boom" } }));
  await withPolicy(errors, { maxRetries: 2 }, async (policy, fake) => {
    const error = await policyError(policy.next(request()));
    assert.match(
      error.message,
      /^Model request to http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed: HTTP 500: /,
    );
    assert.match(error.message, /boom/);
    assert.equal(fake.requests.length, 3);
  });
});

Deno.test("OpenAIPolicy.next() does not retry a 400", async () => {
  await withPolicy(
    [{ status: 400, body: { error: "bad request" } }, { content: "never sent" }],
    { maxRetries: 3 },
    async (policy, fake) => {
      const error = await policyError(policy.next(request()));
      assert.match(error.message, /HTTP 400: .*bad request/);
      assert.equal(fake.requests.length, 1);
    },
  );
});

Deno.test("OpenAIPolicy.next() fails with PolicyError when every attempt times out", async () => {
  const slow = { status: 200, body: { choices: [] }, delayMs: 2_000 };
  await withPolicy([slow, slow], { requestTimeoutMs: 200, maxRetries: 1 }, async (policy, fake) => {
    const started = performance.now();
    const error = await policyError(policy.next(request()));
    assert.match(error.message, /failed: request timed out after 200 ms$/);
    assert.equal(fake.requests.length, 2);
    assert.ok(performance.now() - started < 1_500);
  });
});

Deno.test("OpenAIPolicy.next() rejects a body that is not JSON as malformed", async () => {
  await withPolicy([{ status: 200, body: "<html>oops" }], {}, async (policy, fake) => {
    const error = await policyError(policy.next(request()));
    assert.match(
      error.message,
      /^Malformed chat completion from http:\/\/127\.0\.0\.1:\d+\/v1: body is not JSON: <html>oops$/,
    );
    assert.equal(fake.requests.length, 1);
  });
});

Deno.test("OpenAIPolicy.next() rejects a completion without choices as malformed", async () => {
  await withPolicy(
    [{ status: 200, body: { id: "x" } }, { status: 200, body: { choices: [] } }],
    {},
    async (policy) => {
      const missing = await policyError(policy.next(request()));
      assert.match(missing.message, /^Malformed chat completion from .*: choices: /);
      const empty = await policyError(policy.next(request()));
      assert.match(empty.message, /^Malformed chat completion from .*: choices: /);
    },
  );
});

Deno.test("OpenAIPolicy.next() rejects token ids and log-probabilities of the wrong shape", async () => {
  const message = { role: "assistant", content: "ok" };
  const bodies = [
    { prompt_token_ids: [1, 2.5], choices: [{ message }] },
    { choices: [{ message, token_ids: [1, "2"] }] },
    { choices: [{ message, token_ids: "1 2" }] },
    { choices: [{ message, logprobs: { content: [{ logprob: -1 }, { logprob: "x" }] } }] },
    { choices: [{ message, logprobs: { content: [null] } }] },
    { choices: [{ message, meta_info: { output_token_logprobs: [[-0.5, 7.5, "o"]] } }] },
  ];
  await withPolicy(
    bodies.map((body) => ({ status: 200, body })),
    {},
    async (policy) => {
      const shown: string[] = [];
      for (const _ of bodies) shown.push((await policyError(policy.next(request()))).message);
      assert.deepEqual(shown.map((m) => m.replace(/^Malformed chat completion from \S+: /, "")), [
        "prompt_token_ids: expected an array of integer token ids",
        "choices[0].token_ids: expected an array of integer token ids",
        "choices[0].token_ids: expected an array of integer token ids",
        "choices[0].logprobs.content: expected an array of objects with a number logprob",
        "choices[0].logprobs.content: expected an array of objects with a number logprob",
        "choices[0].meta_info.output_token_logprobs: expected an array of [logprob, token id, ...] entries",
      ]);
    },
  );
});

Deno.test("OpenAIPolicy.next() stops when the episode signal is already aborted", async () => {
  await withPolicy([{ content: "never sent" }], {}, async (policy, fake) => {
    const error = await policyError(
      policy.next({ ...request(), signal: AbortSignal.abort() }),
    );
    assert.match(error.message, /^Model request cancelled: the episode ran out of time$/);
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test("OpenAIPolicy.next() reads vLLM's reasoning field as the turn's reasoning", async () => {
  const body = {
    choices: [{
      message: { content: "\n\n", reasoning: "check the median" },
      finish_reason: "stop",
    }],
  };
  await withPolicy([{ status: 200, body }], {}, async (policy) => {
    const turn = await policy.next(request());
    assert.equal(turn.raw.reasoning, "check the median");
    assert.equal(turn.message.reasoning_content, "check the median");
  });
});

Deno.test("OpenAIPolicy.next() reads SGLang's prompt_token_ids and meta_info", async () => {
  const body = {
    choices: [{
      message: { content: "ok" },
      finish_reason: "stop",
      prompt_token_ids: [1, 2, 3],
      meta_info: { output_token_logprobs: [[-0.5, 7, "o"], [-0.25, 8, "k"]] },
    }],
  };
  await withPolicy([{ status: 200, body }], {}, async (policy) => {
    const turn = await policy.next(request());
    assert.deepEqual(turn.tokens, {
      prompt_ids: [1, 2, 3],
      completion_ids: [7, 8],
      logprobs: [-0.5, -0.25],
    });
  });
});

Deno.test("OpenAIPolicy.next() does not fold reasoning that the content already carries", async () => {
  // The text tool-call path keeps <think> in the content; folding it again would render it twice.
  const content =
    '<think>plan</think>\n<tool_call>{"name": "inspect_tree", "arguments": {}}</tool_call>';
  await withPolicy([{ content: "done" }], { textToolCalls: true }, async (policy, fake) => {
    await policy.next(request([
      ...CONVERSATION,
      { role: "assistant", content, reasoning_content: "plan" },
      { role: "user", content: "next" },
    ]));
    const sent = (fake.requests[0].body.messages as ChatMessage[])[2];
    assert.deepEqual(sent, { role: "assistant", content });
  });
});

for (
  const served of [
    { name: "a reasoning parser and a tool parser", reasoningParser: true, toolParser: true },
    {
      name: "a reasoning parser (reasoning_content) and text tool calls",
      reasoningParser: true,
      toolParser: false,
      field: "reasoning_content" as const,
    },
    { name: "a tool parser only", reasoningParser: false, toolParser: true },
  ]
) {
  Deno.test(`OpenAIPolicy.next() keeps a thinking Qwen3 episode one exact segment under ${served.name}`, async () => {
    // Guards issue 11: the reasoning parser took <think> out of the content and earlier turns
    // re-rendered without it, so every turn after the first drifted.
    const server = startQwen3Server(THINKING_OUTPUTS, {
      reasoningParser: served.reasoningParser,
      toolParser: served.toolParser,
      reasoningField: served.field,
    });
    try {
      const policy = new OpenAIPolicy({
        baseUrl: server.baseUrl,
        model: "Qwen/Qwen3-8B",
        textToolCalls: !served.toolParser,
      });
      const { turns } = await converse(policy, 3);
      assert.deepEqual(turns.map((t) => t.calls[0]?.function.name), [
        "inspect_tree",
        "read_file",
        "submit",
      ]);
      turns.forEach((turn, k) => assert.deepEqual(turn.tokens, server.served[k]));
      const view = buildTrainingView(turns.map((t) => t.tokens));
      assert.equal(view.token_drift, false);
      assert.equal(view.segments.length, 1);
      const sequence = [...view.segments[0].prompt_ids, ...view.segments[0].response_ids];
      const last = server.served[2];
      assert.deepEqual(sequence, [...last.prompt_ids, ...last.completion_ids]);
      assert.equal(
        view.segments[0].loss_mask.filter((m) => m === 1).length,
        server.served.reduce((n, s) => n + s.completion_ids.length, 0),
      );
    } finally {
      await server.close();
    }
  });
}

Deno.test("OpenAIPolicy.next() shows the drift Qwen3's template causes with thinking off", async () => {
  // The template drops the empty <think></think> of earlier turns, so chat mode cannot keep the
  // prefix; the view flags it and splits (token mode keeps one sequence: token_policy_test.ts).
  const server = startQwen3Server(PLAIN_OUTPUTS, { reasoningParser: true, toolParser: true });
  try {
    const policy = new OpenAIPolicy({
      baseUrl: server.baseUrl,
      model: "Qwen/Qwen3-8B",
      extraBody: { chat_template_kwargs: { enable_thinking: false } },
    });
    const { turns } = await converse(policy, 3);
    const view = buildTrainingView(turns.map((t) => t.tokens));
    assert.equal(view.token_drift, true);
    assert.deepEqual(view.drift_turns, [1, 2]);
  } finally {
    await server.close();
  }
});
