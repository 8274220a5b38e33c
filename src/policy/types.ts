/**
 * What a policy is and the chat messages it reads and writes (OpenAI chat-completions format).
 * A policy turns the conversation so far into one assistant message; the loop executes its tool call.
 */
import type { ToolSchema } from "../tools/registry.ts";

/** A tool call as OpenAI sends it: arguments are a JSON string. */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One message of the conversation. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | {
    role: "assistant";
    content: string | null;
    tool_calls?: ChatToolCall[];
    /** Reasoning text when the server or the text parser separates it. */
    reasoning_content?: string;
  }
  | { role: "tool"; tool_call_id: string; name: string; content: string };

/** The assistant message type. */
export type AssistantMessage = Extract<ChatMessage, { role: "assistant" }>;

/** What the loop asks of a policy each turn. */
export interface PolicyRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** Most tokens this turn may generate. */
  maxTokens?: number;
  /** Stops an in-flight request when the episode's wall time runs out. */
  signal?: AbortSignal;
}

/** Server-returned token data of one turn (absent when the server does not return it). */
export interface TurnTokens {
  /** Token ids of the whole prompt as the server tokenized it. */
  prompt_ids: number[] | null;
  /** Token ids the model generated. */
  completion_ids: number[] | null;
  /** Log-probability of each generated token. */
  logprobs: number[] | null;
}

/** One policy answer. */
export interface PolicyTurn {
  /**
   * The assistant message as it enters the conversation. Native tool calls stay in `tool_calls`;
   * text tool calls stay in `content` as the model wrote them, so the history re-renders the same tokens.
   */
  message: AssistantMessage;
  /** The tool calls found, in order; only the first is executed. */
  calls: ChatToolCall[];
  /** The model output as received, before normalization. */
  raw: { content: string | null; reasoning: string | null; tool_calls: unknown[] | null };
  /** Text tool-call blocks that could not be parsed. */
  parse_errors: string[];
  tokens: TurnTokens | null;
  usage: { prompt_tokens: number; completion_tokens: number } | null;
  finish_reason: string | null;
  latency_ms: number;
}

/** Where actions come from. */
export interface Policy {
  /** `openai`, `reference`, `scripted`. */
  readonly name: string;
  readonly model: string | null;
  /** Sampling parameters, recorded in the trajectory. */
  readonly sampling: Record<string, unknown>;
  /** Whether tool schemas go into the system prompt (models without native tool calling). */
  readonly textToolCalls: boolean;
  next(request: PolicyRequest): Promise<PolicyTurn>;
}
