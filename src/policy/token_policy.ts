/**
 * The token-in, token-out policy: patchgym keeps the token sequence of the episode itself, so the
 * training view cannot drift by construction. The first prompt and every later tool or user
 * message are tokenized by the server's own chat template through its `/tokenize` endpoint (only
 * the new messages, never the history); the sequence goes to `/v1/completions` as token ids, and
 * the generated ids and logprobs come back (`return_token_ids`) and are appended as they are. Tool
 * calls are parsed from the generated text with the text tool-call parser. This is how verl's agent
 * loop keeps ids, with the server as the tokenizer. It needs a server whose `/tokenize` accepts chat
 * messages (vLLM does; SGLang's takes text only); `doctor` says which mode an endpoint supports.
 */
import { formatIssue } from "../zod_issues.ts";
import { z } from "zod";
import { numberArray, TOKEN_IDS } from "../number_arrays.ts";
import { PolicyError } from "../errors.ts";
import type { ToolSchema } from "../tools/registry.ts";
import { baseUrlOf, type HttpOptions, httpOptions, postJson } from "./_http.ts";
import { assistantTurn } from "./assistant_turn.ts";
import type { AssistantMessage, ChatMessage, Policy, PolicyRequest, PolicyTurn } from "./types.ts";

/** How to reach and sample the model in token mode. */
export interface TokenPolicyOptions {
  /** Base URL up to `/v1`, e.g. `http://127.0.0.1:8000/v1`; `/tokenize` is at the server root. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Sampling parameters sent as they are (temperature, top_p, seed, ...). */
  sampling?: Record<string, unknown>;
  /** Tool schemas in the system prompt instead of the template's `tools`. */
  textToolCalls?: boolean;
  /** Keyword arguments for the chat template (e.g. `{"enable_thinking": false}`). */
  chatTemplateKwargs?: Record<string, unknown>;
  /** Extra fields of every completions request. */
  extraBody?: Record<string, unknown>;
  requestTimeoutMs?: number;
  maxRetries?: number;
  backoffMs?: number;
  fetch?: typeof fetch;
}

const TokenizeSchema = z.object({ tokens: TOKEN_IDS });

const CompletionSchema = z.object({
  choices: z.array(z.object({
    text: z.string(),
    finish_reason: z.string().nullish(),
    token_ids: TOKEN_IDS.nullish(),
    logprobs: z.object({ token_logprobs: numberArray("log-probabilities", { nullable: true }) })
      .nullish(),
  })).min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
});

/** Token ids the chat template puts around messages, learned once per policy. */
interface TemplateFacts {
  /** What the template renders before any message (a default system prompt, or nothing). */
  prefix: number[];
  /** A rendered user and assistant turn, to find what follows an end-of-turn token. */
  turn: number[];
}

/** A policy backed by a server's tokenize and completions endpoints, one episode per instance. */
export class TokenPolicy implements Policy {
  readonly name = "openai";
  readonly model: string;
  readonly sampling: Record<string, unknown>;
  readonly textToolCalls: boolean;
  readonly #options: TokenPolicyOptions & HttpOptions & { root: string };
  #ids: number[] | null = null;
  /** How many messages of the conversation are in `#ids`. */
  #seen = 0;
  #last: AssistantMessage | null = null;
  #lastEnd: { id: number; stopped: boolean } | null = null;
  #facts: TemplateFacts | null = null;
  #calls = 0;

  constructor(options: TokenPolicyOptions) {
    const url = baseUrlOf(options.baseUrl);
    this.model = options.model;
    this.sampling = options.sampling ?? {};
    this.textToolCalls = options.textToolCalls ?? false;
    this.#options = {
      ...options,
      baseUrl: url,
      root: url.replace(/\/v1$/, ""),
      ...httpOptions(options),
    };
  }

  async next(request: PolicyRequest): Promise<PolicyTurn> {
    const started = performance.now();
    const prompt = await this.#prompt(request);
    const o = this.#options;
    const data = await postJson(`${o.baseUrl}/completions`, {
      model: this.model,
      prompt,
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
      ...this.sampling,
      logprobs: 1,
      return_token_ids: true,
      ...o.extraBody,
      n: 1,
      stream: false,
    }, { ...o, signal: request.signal, what: "completion", from: o.baseUrl });
    const parsed = CompletionSchema.safeParse(data);
    if (!parsed.success) throw malformed("completion", o.baseUrl, parsed.error, data);
    const choice = parsed.data.choices[0];
    if (!choice.token_ids) {
      throw new PolicyError(
        `Cannot run in token mode against ${o.baseUrl}: the completion carries no "token_ids"; use a vLLM release with "return_token_ids", or --api chat`,
      );
    }
    const completion = choice.token_ids;
    const lp = choice.logprobs?.token_logprobs ?? null;
    const logprobs = lp && lp.length === completion.length && lp.every((x) => x !== null)
      ? lp as number[]
      : null;
    const turn = assistantTurn({ content: choice.text }, this.#calls++, {
      tokens: { prompt_ids: prompt, completion_ids: [...completion], logprobs },
      usage: parsed.data.usage
        ? {
          prompt_tokens: parsed.data.usage.prompt_tokens,
          completion_tokens: parsed.data.usage.completion_tokens,
        }
        : null,
      finish_reason: choice.finish_reason ?? null,
      latency_ms: performance.now() - started,
    });
    this.#ids = [...prompt, ...completion];
    this.#seen = request.messages.length + 1;
    this.#last = turn.message;
    this.#lastEnd = completion.length > 0
      ? { id: completion[completion.length - 1], stopped: choice.finish_reason === "stop" }
      : null;
    return turn;
  }

  /** The prompt ids: the first prompt tokenized whole, later ones extended by the new messages. */
  async #prompt(request: PolicyRequest): Promise<number[]> {
    if (this.#ids === null) {
      return await this.#tokenize(request.messages, {
        tools: this.textToolCalls ? undefined : request.tools,
        generation: true,
        signal: request.signal,
      });
    }
    const fresh = request.messages.slice(this.#seen);
    if (request.messages[this.#seen - 1] !== this.#last || fresh.length === 0) {
      throw new PolicyError(
        "Cannot continue in token mode: the conversation is not the previous one plus new tool or user messages; token mode runs one episode per policy",
      );
    }
    const wrong = fresh.find((m) => m.role !== "tool" && m.role !== "user");
    if (wrong) {
      throw new PolicyError(
        `Cannot continue in token mode: a new "${wrong.role}" message was added; only tool and user messages can follow the model's turn`,
      );
    }
    const facts = this.#facts ??= await this.#templateFacts(request.signal);
    const ids = await this.#tokenize(fresh, { generation: true, signal: request.signal });
    if (!startsWith(ids, facts.prefix)) {
      throw new PolicyError(
        "Cannot continue in token mode: the chat template renders new messages with a different preamble than an empty conversation; use --api chat",
      );
    }
    return [...this.#ids, ...this.#separator(facts), ...ids.slice(facts.prefix.length)];
  }

  /**
   * What the template puts after the end-of-turn token the model generated (ChatML: a newline),
   * so the sequence matches the template's own rendering. Nothing when the turn did not end
   * with a token the template renders (cut off by the length limit, or stopped by a stop string).
   */
  #separator(facts: TemplateFacts): number[] {
    const end = this.#lastEnd;
    if (!end?.stopped) return [];
    const at = facts.turn.lastIndexOf(end.id);
    return at === -1 ? [] : facts.turn.slice(at + 1);
  }

  /** The template's preamble (verl's method: one empty user message against two) and one turn. */
  async #templateFacts(signal?: AbortSignal): Promise<TemplateFacts> {
    const user: ChatMessage = { role: "user", content: "" };
    const one = await this.#tokenize([user], { generation: false, signal });
    const two = await this.#tokenize([user, user], { generation: false, signal });
    const turn = await this.#tokenize([
      { role: "user", content: "x" },
      { role: "assistant", content: "x" },
    ], { generation: false, signal });
    return { prefix: one.slice(0, one.length - (two.length - one.length)), turn };
  }

  async #tokenize(
    messages: ChatMessage[],
    options: { tools?: ToolSchema[]; generation: boolean; signal?: AbortSignal },
  ): Promise<number[]> {
    const o = this.#options;
    const data = await postJson(`${o.root}/tokenize`, {
      model: this.model,
      messages,
      ...(options.tools ? { tools: options.tools } : {}),
      add_generation_prompt: options.generation,
      add_special_tokens: false,
      ...(o.chatTemplateKwargs ? { chat_template_kwargs: o.chatTemplateKwargs } : {}),
    }, { ...o, signal: options.signal, what: "tokenization", from: o.root });
    const parsed = TokenizeSchema.safeParse(data);
    if (!parsed.success) throw malformed("tokenization", o.root, parsed.error, data);
    return parsed.data.tokens;
  }
}

function malformed(what: string, from: string, error: z.ZodError, data: unknown): PolicyError {
  const problem = formatIssue(error.issues[0], data, { top: "response" });
  return new PolicyError(`Malformed ${what} from ${from}: ${problem}`);
}

function startsWith(ids: number[], prefix: number[]): boolean {
  return prefix.length <= ids.length && prefix.every((id, i) => ids[i] === id);
}
