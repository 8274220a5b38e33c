import assert from "node:assert/strict";
import { PolicyError } from "../../src/errors.ts";
import { toWire } from "../../src/policy/openai.ts";
import { TokenPolicy } from "../../src/policy/token_policy.ts";
import { toolSchemas } from "../../src/tools/registry.ts";
import { buildTrainingView } from "../../src/trajectory/training_view.ts";
import { IM_END, qwen3, renderQwen3, startQwen3Server } from "../_qwen3_server.ts";
import { converse, PLAIN_OUTPUTS, THINKING_OUTPUTS } from "../_conversation.ts";

const MODEL = "Qwen/Qwen3-8B";

for (const thinking of [true, false]) {
  Deno.test(`TokenPolicy.next() keeps one exact token sequence with thinking ${thinking ? "on" : "off"}`, async () => {
    const outputs = thinking ? THINKING_OUTPUTS : PLAIN_OUTPUTS;
    const server = startQwen3Server(outputs);
    const kwargs = { enable_thinking: thinking };
    try {
      const policy = new TokenPolicy({
        baseUrl: server.baseUrl,
        model: MODEL,
        chatTemplateKwargs: kwargs,
      });
      const { messages, turns } = await converse(policy, outputs.length);
      const completions = server.requests.filter((r) => r.path === "/v1/completions");
      const encode = qwen3().encode;
      const opening = thinking ? "" : "<think>\n\n</think>\n\n";
      turns.forEach((turn, k) => {
        // Turn 0: the server's rendering of the opening. Later turns: the previous sequence, the
        // newline ChatML puts after <|im_end|>, and the template's rendering of the tool result.
        const rendered = k === 0
          ? encode(
            renderQwen3(messages.slice(0, 2), { tools: toolSchemas(), generation: true, kwargs }),
          )
          : [
            ...turns[k - 1].tokens!.prompt_ids!,
            ...turns[k - 1].tokens!.completion_ids!,
            ...encode(
              `\n<|im_start|>user\n<tool_response>\nresult ${
                k - 1
              }\n</tool_response><|im_end|>\n<|im_start|>assistant\n${opening}`,
            ),
          ];
        assert.deepEqual(turn.tokens!.prompt_ids, rendered, `turn ${k} prompt`);
        if (thinking) {
          // With thinking on, that is also exactly what the template renders for the whole
          // conversation (reasoning folded as the chat client sends it).
          const whole = encode(
            renderQwen3(messages.slice(0, 2 + 2 * k).map(toWire), {
              tools: toolSchemas(),
              generation: true,
              kwargs,
            }),
          );
          assert.deepEqual(turn.tokens!.prompt_ids, whole);
        }
        assert.deepEqual(completions[k].body.prompt, rendered);
        assert.deepEqual(turn.tokens!.completion_ids, server.served[k].completion_ids);
        assert.deepEqual(turn.tokens!.logprobs, server.served[k].logprobs);
        assert.equal(turn.tokens!.completion_ids.at(-1), IM_END);
        assert.equal(turn.message.content, outputs[k]);
        assert.equal(turn.calls.length, 1);
      });
      assert.deepEqual(turns.map((t) => t.calls[0].function.name), [
        "inspect_tree",
        "read_file",
        "submit",
      ]);
      if (thinking) assert.equal(turns[1].message.reasoning_content, "The median lives in stats.");
      else {
        const prompt = encode("<|im_start|>assistant\n<think>\n\n</think>\n\n");
        assert.deepEqual(turns[0].tokens!.prompt_ids!.slice(-prompt.length), prompt);
      }
      const view = buildTrainingView(turns.map((t) => t.tokens));
      assert.equal(view.token_drift, false);
      assert.equal(view.segments.length, 1);
      const [segment] = view.segments;
      assert.deepEqual(segment.prompt_ids, server.served[0].prompt_ids);
      // Per turn: the model's ids carry loss and their logprobs; the tool ids between them do not.
      let at = 0;
      for (let k = 0; k < turns.length; k++) {
        const start = server.served[k].prompt_ids.length - segment.prompt_ids.length;
        assert.ok(segment.loss_mask.slice(at, start).every((m) => m === 0));
        const ids = server.served[k].completion_ids;
        assert.deepEqual(segment.response_ids.slice(start, start + ids.length), ids);
        assert.deepEqual(segment.loss_mask.slice(start, start + ids.length), ids.map(() => 1));
        assert.deepEqual(
          segment.rollout_logprobs!.slice(start, start + ids.length),
          server.served[k].logprobs,
        );
        at = start + ids.length;
      }
      assert.equal(at, segment.response_ids.length);
    } finally {
      await server.close();
    }
  });
}

Deno.test("TokenPolicy.next() tokenizes only the new messages after the first prompt", async () => {
  const server = startQwen3Server(THINKING_OUTPUTS);
  try {
    const policy = new TokenPolicy({ baseUrl: server.baseUrl, model: MODEL });
    await converse(policy, 3);
    const tokenized = server.requests.filter((r) => r.path === "/tokenize")
      .map((r) => (r.body.messages as { role: string }[]).map((m) => m.role).join(","));
    // The first prompt; the template facts (learned once); then one tool message per turn.
    assert.deepEqual(tokenized, [
      "system,user",
      "user",
      "user,user",
      "user,assistant",
      "tool",
      "tool",
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("TokenPolicy.next() fails with PolicyError when the server returns no token ids", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/tokenize"
        ? Response.json({ tokens: [1, 2] })
        : Response.json({ choices: [{ text: "hi", finish_reason: "stop" }] }),
  );
  try {
    const policy = new TokenPolicy({
      baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
      model: MODEL,
      maxRetries: 0,
    });
    await assert.rejects(
      policy.next({ messages: [{ role: "user", content: "hi" }], tools: [] }),
      (error) => error instanceof PolicyError && /no "token_ids".*--api chat$/.test(error.message),
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("TokenPolicy.next() refuses a conversation that is not the previous one extended", async () => {
  const server = startQwen3Server(THINKING_OUTPUTS);
  try {
    const policy = new TokenPolicy({ baseUrl: server.baseUrl, model: MODEL });
    const first = await converse(policy, 1);
    await assert.rejects(
      policy.next({ messages: first.messages.slice(0, 2), tools: toolSchemas() }),
      (error) => error instanceof PolicyError && /not the previous one/.test(error.message),
    );
  } finally {
    await server.close();
  }
});
