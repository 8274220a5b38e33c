import assert from "node:assert/strict";
import { makePolicy, resolvePolicy } from "../../src/cli/_policy.ts";
import { UsageError } from "../../src/errors.ts";
import { OpenAIPolicy } from "../../src/policy/openai.ts";
import { TokenPolicy } from "../../src/policy/token_policy.ts";
import type { Task } from "../../src/task/spec.ts";

const ENDPOINT = { "base-url": "http://127.0.0.1:9/v1", model: "m" };

Deno.test("resolvePolicy() merges --chat-template-kwargs into --extra-body", () => {
  const { config } = resolvePolicy({
    ...ENDPOINT,
    "extra-body": '{"top_k": 20, "chat_template_kwargs": {"a": 1}}',
    "chat-template-kwargs": '{"enable_thinking": false}',
  });
  assert.equal(config.api, "chat");
  assert.deepEqual(config.extra_body, {
    top_k: 20,
    chat_template_kwargs: { a: 1, enable_thinking: false },
  });
});

Deno.test("resolvePolicy() rejects a JSON flag that is not an object and an unknown --api", () => {
  assert.throws(() => resolvePolicy({ ...ENDPOINT, "extra-body": "[1]" }), UsageError);
  assert.throws(
    () => resolvePolicy({ ...ENDPOINT, "chat-template-kwargs": "{oops" }),
    /--chat-template-kwargs: expected a JSON object, got "\{oops"/,
  );
  assert.throws(
    () => resolvePolicy({ ...ENDPOINT, api: "grpc" }),
    /--api: expected one of chat, tokens/,
  );
});

Deno.test("makePolicy() builds the token policy for --api tokens and the chat policy otherwise", () => {
  const task = {} as Task;
  const tokens = resolvePolicy({ ...ENDPOINT, api: "tokens" }).config;
  assert.ok(makePolicy(tokens, task, 0) instanceof TokenPolicy);
  const chat = resolvePolicy(ENDPOINT).config;
  assert.ok(makePolicy(chat, task, 0) instanceof OpenAIPolicy);
  // A run.json saved before --api existed has neither field.
  const { api: _, extra_body: __, ...old } = chat;
  assert.ok(makePolicy(old, task, 0) instanceof OpenAIPolicy);
});
