/**
 * The trainer-driven protocol's requests, validated at the edge: one zod schema per op. The same
 * requests arrive as JSON lines (`serve --stdio`), WebSocket text frames and, translated from
 * OpenEnv's shapes, HTTP bodies (`serve --http`); see `EpisodeServer` for the answers.
 */
import { z } from "zod";
import { integerArray, LOGPROBS } from "../number_arrays.ts";
import { formatIssue } from "../zod_issues.ts";
import { MAX_TOOL_CALLS } from "../policy/assistant_turn.ts";

const ToolCallSchema = z.object({
  id: z.string().nullish(),
  type: z.literal("function").optional(),
  function: z.object({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  }),
});

/** A content part of an OpenAI-style message; only text parts carry text for the environment. */
const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });

/** An assistant message as a trainer's model produced it. */
export const AssistantMessageSchema = z.object({
  role: z.literal("assistant").default("assistant"),
  content: z.union([z.string(), z.array(ContentPartSchema)]).nullish(),
  tool_calls: z.array(ToolCallSchema).max(MAX_TOOL_CALLS).nullish(),
  /** Reasoning as SGLang and older vLLM name it. */
  reasoning_content: z.string().nullish(),
  /** Reasoning as newer vLLM names it. */
  reasoning: z.string().nullish(),
});

/** An assistant message as received. */
export type AssistantMessageInput = z.infer<typeof AssistantMessageSchema>;

const TokenIds = integerArray("token ids (integers from 0)", { min: 0 });

/** What the trainer's generation gave besides the message: token ids, logprobs, usage. */
export const GenerationSchema = z.object({
  tokens: z.object({
    prompt_ids: TokenIds.nullish(),
    completion_ids: TokenIds.nullish(),
    logprobs: LOGPROBS.nullish(),
  }).nullish(),
  usage: z.object({
    prompt_tokens: z.number().int().min(0),
    completion_tokens: z.number().int().min(0),
  }).nullish(),
  finish_reason: z.string().nullish(),
});

/** Limits a reset may set; time is environment time (tool execution), never generation time. */
export const ResetLimitsSchema = z.strictObject({
  max_turns: z.number().int().min(1).optional(),
  max_total_tokens: z.number().int().min(1).optional(),
  max_tokens_per_turn: z.number().int().min(1).optional(),
  max_env_s: z.number().positive().optional(),
});

/** Episode ids chosen by the client: short, printable, no path characters. */
export const EpisodeIdSchema = z.string().regex(
  /^[A-Za-z0-9._:-]{1,255}$/,
  "expected 1-255 letters, digits or . _ : -",
);

/** The options of a reset, shared by every framing. */
export const ResetOptionsSchema = z.object({
  /** The task; without it, `seed` picks one from the sorted task list. */
  task_id: z.string().optional(),
  seed: z.number().int().min(0).optional(),
  /** A custom id for the episode (default: generated). */
  episode_id: EpisodeIdSchema.optional(),
  limits: ResetLimitsSchema.optional(),
  /** Kept for older clients: the same as `limits.max_turns`. */
  max_turns: z.number().int().min(1).optional(),
  /** `native` tool calls (default) or `text`: the schemas go into the system prompt. */
  tool_calls: z.enum(["native", "text"]).optional(),
  /** Kept for older clients: the same as `tool_calls: "text"`. */
  text_tool_calls: z.boolean().optional(),
  /** Identity in the record: the group (default run/task) and the sample index. */
  group_id: z.string().max(255).optional(),
  sample: z.number().int().min(0).optional(),
});

/** Options of a reset. */
export type ResetOptions = z.infer<typeof ResetOptionsSchema>;

const Id = z.union([z.string(), z.number()]).nullish();

/** One request of the native protocol. */
export const RequestSchema = z.discriminatedUnion("op", [
  ResetOptionsSchema.extend({ op: z.literal("reset"), id: Id }),
  GenerationSchema.extend({
    op: z.literal("step"),
    id: Id,
    episode_id: z.string(),
    message: AssistantMessageSchema,
  }),
  z.object({ op: z.literal("finish"), id: Id, episode_id: z.string() }),
  z.object({ op: z.literal("close"), id: Id, episode_id: z.string() }),
  z.object({ op: z.literal("state"), id: Id, episode_id: z.string() }),
  z.object({ op: z.literal("tasks"), id: Id }),
]);

/** A request of the native protocol. */
export type Request = z.infer<typeof RequestSchema>;

/** The ops, for messages. */
export const OPS = "reset, step, finish, close, state and tasks";

/** Error codes of the protocol: a closed set. */
export type ServeErrorCode =
  | "bad_json"
  | "bad_request"
  | "line_too_long"
  | "too_deep"
  | "too_many_episodes"
  | "too_busy"
  | "too_slow"
  | "unknown_task"
  | "unknown_episode"
  | "episode_expired"
  | "episode_done"
  | "episode_exists"
  | "over_quota"
  | "forbidden"
  | "environment_error"
  | "internal";

/** An error answer. */
export interface ServeError {
  /** `retry_after_s`: when an `over_quota` request may be sent again. */
  error: { code: ServeErrorCode; message: string; retry_after_s?: number };
}

/** Build an error answer. */
export function failure(
  code: ServeErrorCode,
  message: string,
  retryAfterS?: number,
): ServeError {
  return {
    error: { code, message, ...(retryAfterS === undefined ? {} : { retry_after_s: retryAfterS }) },
  };
}

/** The first issue of a zod error over `input`, worded as everywhere (see `formatIssue`). */
export function firstIssue(error: z.ZodError, input: unknown): string {
  return formatIssue(error.issues[0], input, { top: "request" });
}
