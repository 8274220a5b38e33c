/**
 * The `openai` policy: any OpenAI-compatible chat-completions server (vLLM, SGLang, Ollama,
 * llama.cpp, OpenAI). Sends the conversation and the tool list, asks for logprobs and (on servers
 * that support it, like vLLM's `return_token_ids`) the exact token ids, retries transient failures
 * with backoff, validates the response, and parses text tool calls for models served without a
 * tool parser. Any failure becomes a {@linkcode PolicyError}, which ends the episode as `policy_error`.
 */
import { z } from "zod";
import { PolicyError } from "../errors.ts";
import { assistantTurn } from "./assistant_turn.ts";
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
  /** Ask for token ids (`return_token_ids`); default: on unless the host is api.openai.com. */
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
      content: z.array(z.object({ logprob: z.number() })).nullish(),
    }).nullish(),
    token_ids: z.array(z.number().int()).nullish(),
  })).min(1),
  prompt_token_ids: z.array(z.number().int()).nullish(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

const RETRY_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);

/** A policy backed by an OpenAI-compatible chat-completions endpoint. */
export class OpenAIPolicy implements Policy {
  readonly name = "openai";
  readonly model: string;
  readonly sampling: Record<string, unknown>;
  readonly textToolCalls: boolean;
  readonly #options:
    & Required<Omit<OpenAIPolicyOptions, "apiKey" | "extraBody">>
    & OpenAIPolicyOptions;
  #calls = 0;

  constructor(options: OpenAIPolicyOptions) {
    const url = options.baseUrl.replace(/\/+$/, "");
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
      requestTimeoutMs: options.requestTimeoutMs ?? 300_000,
      maxRetries: options.maxRetries ?? 4,
      backoffMs: options.backoffMs ?? 500,
      fetch: options.fetch ?? fetch,
    };
  }

  async next(request: PolicyRequest): Promise<PolicyTurn> {
    const started = performance.now();
    const body = this.#body(request);
    const data = await this.#post(body, request.signal);
    const parsed = ResponseSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new PolicyError(
        `Malformed chat completion from ${this.#options.baseUrl}: ${
          issue.path.join(".") || "response"
        }: ${issue.message}`,
      );
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
      ...(o.returnTokenIds ? { return_token_ids: true } : {}),
      ...o.extraBody,
      n: 1,
      stream: false,
    };
  }

  async #post(body: Record<string, unknown>, episodeSignal?: AbortSignal): Promise<unknown> {
    const o = this.#options;
    const url = `${o.baseUrl}/chat/completions`;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (o.apiKey) headers.authorization = `Bearer ${o.apiKey}`;
    const payload = JSON.stringify(body);
    let lastProblem = "";
    let retryAfter: number | null = null;
    for (let attempt = 0; attempt <= o.maxRetries; attempt++) {
      if (attempt > 0) await sleep(backoff(o.backoffMs, attempt, retryAfter), episodeSignal);
      retryAfter = null;
      const timeout = AbortSignal.timeout(o.requestTimeoutMs);
      const signal = episodeSignal ? AbortSignal.any([timeout, episodeSignal]) : timeout;
      let response: Response;
      try {
        response = await o.fetch(url, { method: "POST", headers, body: payload, signal });
      } catch (error) {
        if (episodeSignal?.aborted) {
          throw new PolicyError("Model request cancelled: the episode ran out of time", {
            cause: error,
          });
        }
        lastProblem = timeout.aborted
          ? `request timed out after ${o.requestTimeoutMs} ms`
          : `network error: ${(error as Error).message}`;
        continue;
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (episodeSignal?.aborted) {
          throw new PolicyError("Model request cancelled: the episode ran out of time", {
            cause: error,
          });
        }
        lastProblem = timeout.aborted
          ? `request timed out after ${o.requestTimeoutMs} ms while reading the response`
          : `network error while reading the response: ${(error as Error).message}`;
        continue;
      }
      if (response.ok) {
        try {
          return JSON.parse(text);
        } catch {
          throw new PolicyError(
            `Malformed chat completion from ${o.baseUrl}: body is not JSON: ${text.slice(0, 200)}`,
          );
        }
      }
      lastProblem = `HTTP ${response.status}: ${text.slice(0, 500)}`;
      if (!RETRY_STATUS.has(response.status)) break;
      retryAfter = retryAfterMs(response.headers.get("retry-after"));
    }
    throw new PolicyError(`Model request to ${url} failed: ${lastProblem}`);
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
  const logprobs = choice.logprobs?.content?.map((t) => t.logprob) ?? null;
  const prompt = data.prompt_token_ids ?? null;
  const completion = choice.token_ids ?? null;
  if (!prompt && !completion && !logprobs) return null;
  return { prompt_ids: prompt, completion_ids: completion, logprobs };
}

/** Messages as the wire expects them: our bookkeeping fields removed. */
function toWire(message: ChatMessage): Record<string, unknown> {
  if (message.role === "assistant") {
    const { reasoning_content: _, ...rest } = message;
    return rest;
  }
  return message;
}

function backoff(base: number, attempt: number, retryAfter: number | null): number {
  if (retryAfter !== null) return Math.min(retryAfter, 60_000);
  const exp = base * 2 ** (attempt - 1);
  return exp / 2 + Math.random() * (exp / 2);
}

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      return reject(new PolicyError("Model request cancelled: the episode ran out of time"));
    }
    const id = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(id);
      reject(new PolicyError("Model request cancelled: the episode ran out of time"));
    }, { once: true });
  });
}
