/**
 * The `openai` policy: any OpenAI-compatible chat-completions server (vLLM, SGLang, Ollama,
 * llama.cpp, OpenAI). Sends the conversation (earlier reasoning folded back into the content, see
 * {@linkcode foldReasoning}) and the tool list, asks for logprobs and the exact token ids (vLLM's
 * `return_token_ids`; SGLang's `return_prompt_token_ids` and `return_meta_info`), retries transient
 * failures with backoff, validates the response, and parses text tool calls for models served
 * without a tool parser. Any failure becomes a {@linkcode PolicyError}, which ends the episode as
 * `policy_error`.
 */
import { formatIssue } from "../zod_issues.ts";
import { z } from "zod";
import { TOKEN_IDS } from "../number_arrays.ts";
import { PolicyError } from "../errors.ts";
import { baseUrlOf, type HttpOptions, httpOptions, postJson } from "./_http.ts";
import { assistantTurn } from "./assistant_turn.ts";
import { foldReasoning } from "./reasoning.ts";
import type { ChatMessage, Policy, PolicyRequest, PolicyTurn, TurnTokens } from "./types.ts";

/** How to reach and sample the model. */
export interface OpenAIPolicyOptions {
  /** Base URL up to `/v1`, e.g. `http://127.0.0.1:8000/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Sampling parameters sent as they are (temperature, top_p, seed, ...). */
  sampling?: Record<string, unknown>;
  /** Tool calls as text in the content instead of native `tools` (no server-side tool parser). */
  textToolCalls?: boolean;
  /** Ask for logprobs (default true). */
  logprobs?: boolean;
  /**
   * Ask for token ids (vLLM `return_token_ids`, SGLang `return_prompt_token_ids` and
   * `return_meta_info`); default: on unless the host is api.openai.com.
   */
  returnTokenIds?: boolean;
  /** Extra request fields (e.g. `chat_template_kwargs`). */
  extraBody?: Record<string, unknown>;
  requestTimeoutMs?: number;
  /** Retries after the first attempt for 408/409/429/5xx and network errors. */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with jitter. */
  backoffMs?: number;
  fetch?: typeof fetch;
}

const ToolCallSchema = z.object({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

/** Per generated token, its log-probability (`logprobs.content`), checked in one loop as well. */
const TokenLogprobs = z.custom<{ logprob: number }[]>(
  (value) =>
    Array.isArray(value) &&
    value.every((entry) =>
      typeof entry === "object" && entry !== null && Number.isFinite(entry.logprob)
    ),
  { message: "expected an array of objects with a number logprob" },
);

/** SGLang's `[logprob, token_id, text]` per generated token, checked in one loop as well. */
const SglangLogprobs = z.custom<[number, number, ...unknown[]][]>(
  (value) =>
    Array.isArray(value) &&
    value.every((entry) =>
      Array.isArray(entry) && Number.isFinite(entry[0]) && Number.isSafeInteger(entry[1])
    ),
  { message: "expected an array of [logprob, token id, ...] entries" },
);

const ResponseSchema = z.object({
  choices: z.array(z.object({
    message: z.object({
      content: z.string().nullish(),
      reasoning_content: z.string().nullish(),
      reasoning: z.string().nullish(),
      tool_calls: z.array(ToolCallSchema).nullish(),
    }),
    finish_reason: z.string().nullish(),
    logprobs: z.object({
      content: TokenLogprobs.nullish(),
    }).nullish(),
    /** vLLM (and SGLang releases that took over its name): completion token ids. */
    token_ids: TOKEN_IDS.nullish(),
    /** SGLang: prompt token ids per choice. */
    prompt_token_ids: TOKEN_IDS.nullish(),
    /** SGLang: `output_token_logprobs` as `[logprob, token_id, text]` per generated token. */
    meta_info: z.looseObject({
      output_ids: TOKEN_IDS.nullish(),
      output_token_logprobs: SglangLogprobs.nullish(),
    }).nullish(),
  })).min(1),
  prompt_token_ids: TOKEN_IDS.nullish(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

/** A policy backed by an OpenAI-compatible chat-completions endpoint. */
export class OpenAIPolicy implements Policy {
  readonly name = "openai";
  readonly model: string;
  readonly sampling: Record<string, unknown>;
  readonly textToolCalls: boolean;
  readonly #options:
    & Required<Omit<OpenAIPolicyOptions, "apiKey" | "extraBody">>
    & OpenAIPolicyOptions
    & HttpOptions;
  #calls = 0;

  constructor(options: OpenAIPolicyOptions) {
    const url = baseUrlOf(options.baseUrl);
    this.model = options.model;
    this.sampling = options.sampling ?? {};
    this.textToolCalls = options.textToolCalls ?? false;
    this.#options = {
      ...options,
      baseUrl: url,
      sampling: this.sampling,
      textToolCalls: this.textToolCalls,
      logprobs: options.logprobs ?? true,
      returnTokenIds: options.returnTokenIds ?? !/\/\/api\.openai\.com\b/.test(url),
      ...httpOptions(options),
    };
  }

  async next(request: PolicyRequest): Promise<PolicyTurn> {
    const started = performance.now();
    const body = this.#body(request);
    const o = this.#options;
    const data = await postJson(`${o.baseUrl}/chat/completions`, body, {
      ...o,
      signal: request.signal,
      what: "chat completion",
      from: o.baseUrl,
    });
    const parsed = ResponseSchema.safeParse(data);
    if (!parsed.success) {
      const problem = formatIssue(parsed.error.issues[0], data, { top: "response" });
      throw new PolicyError(`Malformed chat completion from ${this.#options.baseUrl}: ${problem}`);
    }
    return this.#turn(parsed.data, performance.now() - started);
  }

  #body(request: PolicyRequest): Record<string, unknown> {
    const o = this.#options;
    return {
      model: this.model,
      messages: request.messages.map(toWire),
      ...(this.textToolCalls ? {} : { tools: request.tools, tool_choice: "auto" }),
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
      ...this.sampling,
      ...(o.logprobs ? { logprobs: true } : {}),
      ...(o.returnTokenIds
        ? { return_token_ids: true, return_prompt_token_ids: true, return_meta_info: true }
        : {}),
      ...o.extraBody,
      n: 1,
      stream: false,
    };
  }

  #turn(data: z.infer<typeof ResponseSchema>, latency: number): PolicyTurn {
    const choice = data.choices[0];
    const { content, tool_calls, reasoning_content, reasoning } = choice.message;
    return assistantTurn(
      { content, tool_calls, reasoning: reasoning_content ?? reasoning },
      this.#calls++,
      {
        tokens: tokensOf(data, choice),
        usage: data.usage
          ? {
            prompt_tokens: data.usage.prompt_tokens,
            completion_tokens: data.usage.completion_tokens,
          }
          : null,
        finish_reason: choice.finish_reason ?? null,
        latency_ms: latency,
      },
    );
  }
}

function tokensOf(
  data: z.infer<typeof ResponseSchema>,
  choice: z.infer<typeof ResponseSchema>["choices"][number],
): TurnTokens | null {
  const sglang = choice.meta_info?.output_token_logprobs ?? null;
  const logprobs = choice.logprobs?.content?.map((t) => t.logprob) ??
    sglang?.map((entry) => entry[0]) ?? null;
  const prompt = data.prompt_token_ids ?? choice.prompt_token_ids ?? null;
  const completion = choice.token_ids ?? choice.meta_info?.output_ids ??
    sglang?.map((entry) => entry[1]) ?? null;
  if (!prompt && !completion && !logprobs) return null;
  return { prompt_ids: prompt, completion_ids: completion, logprobs };
}

/** Messages as the wire expects them: reasoning folded into the content, bookkeeping removed. */
export function toWire(message: ChatMessage): ChatMessage {
  return message.role === "assistant" ? foldReasoning(message) : message;
}
