/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1, driven by a script of replies.
 * It records every request, and on request it returns vLLM-style token data from a fake tokenizer
 * whose ids are the UTF-8 bytes of a simple rendering of the conversation, so each turn's prompt
 * extends the previous prompt plus completion (the prefix property) unless a drift is injected.
 */

/** A tool call in a scripted reply; object arguments are sent as a JSON string. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Defaults to `call_fake_<turn>_<i>`. */
  id?: string;
}

/** A model reply: content, tool calls, reasoning, and token data unless `token_ids` is false. */
export interface FakeReply {
  content?: string | null;
  tool_calls?: FakeToolCall[];
  /** Sent as `message.reasoning_content`; not part of the fake tokenization. */
  reasoning?: string;
  /** Defaults to `tool_calls` with calls, `stop` without. */
  finish_reason?: string;
  /** Return token ids when the request asks for them (default: the server's `tokenIds`). */
  token_ids?: boolean;
  delayMs?: number;
}

/** A raw HTTP answer; an object body is sent as JSON. */
export interface RawReply {
  status: number;
  body?: string | Record<string, unknown>;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** One scripted answer, consumed per request in order. */
export type FakeScriptEntry = FakeReply | RawReply;

/** How the fake behaves beyond its script. */
export interface FakeOpenAIOptions {
  /** Return token ids for model replies (default true). */
  tokenIds?: boolean;
  /**
   * From model reply `turn` (0-based, counting model replies only) on, add 1 to the prompt token
   * at `position` (default 1), as a server whose tokenizer changed mid-episode would.
   */
  drift?: { turn: number; position?: number };
}

/** A request as the fake received it. */
export interface RecordedRequest {
  path: string;
  headers: Headers;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
}

/** Token data the fake returned for one model reply. */
export interface ServedTokens {
  prompt_ids: number[];
  completion_ids: number[];
  logprobs: number[];
}

/** A running fake server. */
export interface FakeOpenAI {
  /** Base URL up to `/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Token data of each model reply, in order (also when not sent to the client). */
  served: ServedTokens[];
  close(): Promise<void>;
}

/** What the fake tokenizer renders for a message. */
export interface RenderableMessage {
  role: string;
  content?: string | null;
  tool_calls?: { function: { name: string; arguments: string } }[];
}

/** Appended to the rendered conversation to prompt the next assistant message. */
export const GENERATION_PROMPT = "assistant:";

/** The text of one message after its `role:` prefix, up to and including the `|` end marker. */
export function renderBody(message: RenderableMessage): string {
  const calls = (message.tool_calls ?? [])
    .map((call) => `<call ${call.function.name} ${call.function.arguments}>`)
    .join("");
  return `${message.content ?? ""}${calls}|`;
}

/** The rendering of a whole conversation: `role:content|` per message. */
export function renderConversation(messages: RenderableMessage[]): string {
  return messages.map((m) => `${m.role}:${renderBody(m)}`).join("");
}

/** The fake tokenizer: UTF-8 bytes. */
export function tokenize(text: string): number[] {
  return [...new TextEncoder().encode(text)];
}

/** The inverse of {@linkcode tokenize}. */
export function detokenize(ids: number[]): string {
  return new TextDecoder().decode(new Uint8Array(ids));
}

/** Start a fake server answering `script` in order; a request past the end gets a 400. */
export function startFakeOpenAI(
  script: FakeScriptEntry[],
  options: FakeOpenAIOptions = {},
): FakeOpenAI {
  const requests: RecordedRequest[] = [];
  const served: ServedTokens[] = [];
  let next = 0;
  // Aborted on close, so shutdown does not wait out the delayed replies still in flight.
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      const text = await request.text();
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text);
      } catch {
        body = { unparsed: text };
      }
      requests.push({ path: url.pathname, headers: request.headers, body });
      if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        return Response.json({ error: `no route ${request.method} ${url.pathname}` }, {
          status: 404,
        });
      }
      const entry = script[next++];
      if (!entry) {
        return Response.json({
          error: `Fake OpenAI script exhausted after ${script.length} replies`,
        }, { status: 400 });
      }
      if (entry.delayMs) await delay(entry.delayMs, closing.signal);
      if ("status" in entry) {
        const payload = typeof entry.body === "string"
          ? entry.body
          : JSON.stringify(entry.body ?? {});
        return new Response(payload, {
          status: entry.status,
          headers: { "content-type": "application/json", ...entry.headers },
        });
      }
      return Response.json(completion(entry, body, served, options));
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    served,
    close() {
      closing.abort();
      return server.shutdown();
    },
  };
}

function completion(
  reply: FakeReply,
  body: Record<string, unknown>,
  served: ServedTokens[],
  options: FakeOpenAIOptions,
): Record<string, unknown> {
  const turn = served.length;
  const toolCalls = (reply.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_fake_${turn}_${i}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string"
        ? call.arguments
        : JSON.stringify(call.arguments),
    },
  }));
  const content = reply.content ?? null;
  const messages = (body.messages ?? []) as RenderableMessage[];
  const prompt = tokenize(renderConversation(messages) + GENERATION_PROMPT);
  if (options.drift && turn >= options.drift.turn) {
    prompt[options.drift.position ?? 1] += 1;
  }
  const completionIds = tokenize(renderBody({ role: "assistant", content, tool_calls: toolCalls }));
  const logprobs = completionIds.map((_, i) => -((turn + i) % 7 + 1) / 8);
  served.push({ prompt_ids: prompt, completion_ids: completionIds, logprobs });
  const withIds = (reply.token_ids ?? options.tokenIds ?? true) && body.return_token_ids === true;
  const message: Record<string, unknown> = { role: "assistant", content };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reply.reasoning !== undefined) message.reasoning_content = reply.reasoning;
  const choice: Record<string, unknown> = {
    index: 0,
    message,
    finish_reason: reply.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
  if (body.logprobs === true) {
    choice.logprobs = {
      content: completionIds.map((id, i) => ({
        token: `<${id}>`,
        logprob: logprobs[i],
        top_logprobs: [],
      })),
    };
  }
  if (withIds) choice.token_ids = completionIds;
  return {
    id: `chatcmpl-fake-${turn}`,
    object: "chat.completion",
    created: 0,
    model: body.model ?? "fake",
    choices: [choice],
    ...(withIds ? { prompt_token_ids: prompt } : {}),
    usage: {
      prompt_tokens: prompt.length,
      completion_tokens: completionIds.length,
      total_tokens: prompt.length + completionIds.length,
    },
  };
}

/** Wait `ms`, or less when `signal` aborts. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const id = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(id);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
