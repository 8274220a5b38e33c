/**
 * OpenEnv's shapes over the protocol core, so OpenEnv's `EnvClient` and the trainers that speak it
 * connect with no adapter. Read from meta-pytorch/OpenEnv 0.2.3 (`src/openenv/core/env_server/
 * types.py`, `http_server.py`, `serialization.py`, `env_client.py`):
 *
 *   reset   {seed?, episode_id?, ...options}          -> {observation, reward: null, done: false}
 *   step    {action: {...}, timeout_s?, request_id?}  -> {observation, reward, done}
 *   state                                             -> {episode_id, step_count, ...}
 *   WebSocket: {"type":"reset"|"step"|"state"|"close", "data"} -> {"type":"observation"|"state"|
 *   "error", "data"}; errors carry OpenEnv's codes (INVALID_JSON, UNKNOWN_TYPE, VALIDATION_ERROR,
 *   EXECUTION_ERROR, CAPACITY_REACHED, SESSION_ERROR) and patchgym's own in `error_code`.
 *
 * The action is patchgym's: the assistant message with the generation's token ids, logprobs and
 * usage, or `{"finish": true}` to grade now; or OpenEnv's MCP actions as its `MCPToolClient` sends
 * them, `{"type": "list_tools"}` and `{"type": "call_tool", "tool_name", "arguments"}` (see
 * mcp.ts). An action may name its `episode_id`; without one it goes to the episode of the
 * connection (WebSocket) or must be given (HTTP, which OpenEnv keeps stateless: the episode id is
 * what ties HTTP requests together).
 */
import { z } from "zod";
import { NUMBER_ARRAYS_JSON_SCHEMA } from "../number_arrays.ts";
import { VERSION } from "../version.ts";
import {
  AssistantMessageSchema,
  EpisodeIdSchema,
  failure,
  firstIssue,
  GenerationSchema,
  ResetOptionsSchema,
  type ServeError,
  type ServeErrorCode,
} from "./protocol.ts";
import type { Episodes, ResetAnswer, StepAnswer } from "./server.ts";
import { callTool, mcpTools } from "./mcp.ts";

/** OpenEnv's `Action` for patchgym. */
export const ActionSchema = GenerationSchema.extend({
  message: AssistantMessageSchema.optional().describe(
    "The assistant message the model produced (content, tool_calls, reasoning)",
  ),
  finish: z.boolean().optional().describe("End the episode now and grade it"),
  type: z.enum(["list_tools", "call_tool"]).optional().describe(
    "OpenEnv's MCP actions: list the tools, or call one (tool_name, arguments) as this step",
  ),
  tool_name: z.string().optional().describe("The tool a call_tool action calls"),
  arguments: z.record(z.string(), z.unknown()).optional().describe(
    "The arguments of a call_tool action",
  ),
  episode_id: EpisodeIdSchema.optional().describe(
    "The episode to act on (default: the connection's)",
  ),
  request_id: z.string().max(255).optional().describe("Echoed in the observation"),
  metadata: z.record(z.string(), z.unknown()).optional(),
}).refine(
  (a) =>
    a.finish === true || a.message !== undefined || a.type === "list_tools" ||
    (a.type === "call_tool" && a.tool_name !== undefined),
  { message: "give a message, finish: true, or type list_tools, or type call_tool with tool_name" },
);

/** What OpenEnv's `/reset` body may hold: its own fields plus patchgym's reset options. */
export const ResetBodySchema = ResetOptionsSchema.extend({
  request_id: z.string().max(255).optional(),
});

/** OpenEnv's `StepRequest`, plus the episode it addresses. */
export const StepBodySchema = z.object({
  action: z.record(z.string(), z.unknown()),
  timeout_s: z.number().positive().nullish(),
  request_id: z.string().max(255).nullish(),
  episode_id: EpisodeIdSchema.optional(),
});

const ObservationSchema = z.object({
  episode_id: z.string(),
  messages: z.array(z.record(z.string(), z.unknown())).describe(
    "New messages: the whole first conversation on reset, the tool results on a step",
  ),
  tools: z.array(z.record(z.string(), z.unknown())).optional(),
  task: z.record(z.string(), z.unknown()).optional(),
  limits: z.record(z.string(), z.unknown()).optional(),
  terminated: z.boolean(),
  truncated: z.boolean(),
  stop_reason: z.string().nullable(),
  info: z.record(z.string(), z.unknown()).optional(),
  record: z.record(z.string(), z.unknown()).optional().describe(
    "The trajectory record, at the end",
  ),
  request_id: z.string().optional(),
  tool_name: z.string().optional().describe("After a call_tool action: the tool called"),
  result: z.record(z.string(), z.unknown()).nullable().optional().describe(
    "After a call_tool action: MCP's CallToolResult (content, isError, data, structuredContent)",
  ),
  error: z.object({ error_type: z.string(), message: z.string() }).nullable().optional().describe(
    "After a call_tool action the call could not make: OpenEnv's ToolError",
  ),
});

const StateSchema = z.looseObject({
  episode_id: z.string().nullable(),
  step_count: z.number().int().min(0),
});

/** OpenEnv's `SchemaResponse`: JSON schemas of the action, the observation and the state. */
export function schemas(): Record<string, unknown> {
  return {
    action: z.toJSONSchema(ActionSchema, { io: "input", ...NUMBER_ARRAYS_JSON_SCHEMA }),
    observation: z.toJSONSchema(ObservationSchema, NUMBER_ARRAYS_JSON_SCHEMA),
    state: z.toJSONSchema(StateSchema, NUMBER_ARRAYS_JSON_SCHEMA),
  };
}

/** OpenEnv's `EnvironmentMetadata`. */
export function metadata(): Record<string, unknown> {
  return {
    name: "patchgym",
    description:
      "Sandboxed multi-turn coding tasks: one tool call per step, graded by hidden tests at the end",
    readme_content: null,
    version: VERSION,
    author: null,
    documentation_url: null,
  };
}

/** OpenEnv's result of a reset or step: `{observation, reward, done}`. */
export interface OpenEnvResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

/** A failure with the status an HTTP answer gets. */
export interface OpenEnvFailure extends ServeError {
  status: number;
  /** Validation issues in FastAPI's shape, which OpenEnv answers with status 422. */
  detail?: { type: string; loc: string[]; msg: string }[];
}

/** Reset from an OpenEnv reset body (already JSON-parsed). */
export async function openEnvReset(
  server: Episodes,
  body: unknown,
  replace?: string,
): Promise<OpenEnvResult | OpenEnvFailure> {
  const parsed = ResetBodySchema.safeParse(body ?? {});
  if (!parsed.success) return invalid(parsed.error, body ?? {});
  // A new reset on a WebSocket session replaces its episode, as OpenEnv's env.reset() does.
  if (replace) await server.request({ op: "close", episode_id: replace });
  const answer = await attempt(() => server.reset(parsed.data));
  if ("error" in answer) return withStatus(answer);
  return {
    observation: resetObservation(answer, parsed.data.request_id),
    reward: null,
    done: false,
  };
}

/** Step from an OpenEnv action; `fallback` is the connection's episode. */
export async function openEnvStep(
  server: Episodes,
  action: unknown,
  options: { episodeId?: string; requestId?: string | null } = {},
): Promise<OpenEnvResult | OpenEnvFailure> {
  const parsed = ActionSchema.safeParse(action);
  if (!parsed.success) return invalid(parsed.error, action, ["action"]);
  const { message, finish, type, episode_id, request_id, tokens, usage, finish_reason } =
    parsed.data;
  const requestId = request_id ?? options.requestId ?? undefined;
  // Listing needs no episode (OpenEnv: no reset first).
  if (type === "list_tools") {
    return {
      observation: { tools: mcpTools(), ...(requestId ? { request_id: requestId } : {}) },
      reward: null,
      done: false,
    };
  }
  const episodeId = episode_id ?? options.episodeId;
  if (!episodeId) {
    return withStatus(failure(
      "unknown_episode",
      "No episode to step: reset first, or name it in the action's episode_id",
    ));
  }
  if (type === "call_tool" && !finish) {
    return await callToolAction(server, episodeId, parsed.data, requestId);
  }
  const answer = await attempt(() =>
    finish
      ? server.finishEpisode(episodeId)
      : server.stepEpisode(episodeId, message!, { tokens, usage, finish_reason })
  );
  if ("error" in answer) return withStatus(answer);
  return stepResult(episodeId, answer, requestId);
}

/**
 * OpenEnv's `CallToolAction` as one step, answered as its `CallToolObservation` (`tool_name`,
 * `result`, `error`) with the step's fields. A tool's own failure is in `result` (isError); `error`
 * is only for a call that could not be made: an unknown tool, refused before any step.
 */
async function callToolAction(
  server: Episodes,
  episodeId: string,
  action: { tool_name?: string; arguments?: Record<string, unknown> },
  requestId: string | undefined,
): Promise<OpenEnvResult | OpenEnvFailure> {
  const name = action.tool_name!;
  const called = await callTool(server, episodeId, { name, arguments: action.arguments ?? {} });
  if ("error" in called && called.error.code === "unknown_tool") {
    return {
      observation: {
        episode_id: episodeId,
        tool_name: name,
        result: null,
        error: { error_type: "tool_not_found", message: called.error.message },
        ...(requestId ? { request_id: requestId } : {}),
      },
      reward: null,
      done: false,
    };
  }
  if ("error" in called) return withStatus(called as ServeError);
  const { observation, reward, done } = stepResult(episodeId, called.answer, requestId);
  return {
    observation: { ...observation, tool_name: name, result: called.result, error: null },
    reward,
    done,
  };
}

/** OpenEnv's `State` of an episode; with no episode, a fresh environment's state. */
export async function openEnvState(
  server: Episodes,
  episodeId: string | undefined,
): Promise<Record<string, unknown> | OpenEnvFailure> {
  if (!episodeId) return { episode_id: null, step_count: 0 };
  const answer = await attempt(() => server.stateOf(episodeId));
  return "error" in answer ? withStatus(answer as ServeError) : answer;
}

function resetObservation(answer: ResetAnswer, requestId?: string): Record<string, unknown> {
  return {
    episode_id: answer.episode_id,
    messages: answer.messages,
    tools: answer.tools,
    task: answer.task,
    limits: answer.limits,
    terminated: false,
    truncated: false,
    stop_reason: null,
    ...(requestId ? { request_id: requestId } : {}),
  };
}

function stepResult(episodeId: string, answer: StepAnswer, requestId?: string): OpenEnvResult {
  return {
    observation: {
      episode_id: episodeId,
      messages: answer.observation,
      terminated: answer.terminated,
      truncated: answer.truncated,
      stop_reason: answer.stop_reason,
      info: answer.info,
      ...(answer.record ? { record: answer.record } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    },
    reward: answer.reward,
    done: answer.done,
  };
}

/** HTTP status of each error code. */
const STATUS: Record<ServeErrorCode, number> = {
  bad_json: 400,
  bad_request: 422,
  line_too_long: 413,
  too_deep: 400,
  too_many_episodes: 503,
  too_busy: 503,
  too_slow: 408,
  unknown_task: 404,
  unknown_episode: 404,
  episode_expired: 410,
  episode_done: 409,
  episode_exists: 409,
  over_quota: 429,
  forbidden: 403,
  environment_error: 503,
  internal: 500,
};

/** An error answer with its HTTP status. */
export function withStatus(answer: ServeError): OpenEnvFailure {
  return { ...answer, status: STATUS[answer.error.code] };
}

function invalid(error: z.ZodError, input: unknown, prefix: string[] = []): OpenEnvFailure {
  return {
    ...failure("bad_request", firstIssue(error, input)),
    status: 422,
    detail: error.issues.map((issue) => ({
      type: issue.code,
      loc: ["body", ...prefix, ...issue.path.map(String)],
      msg: issue.message,
    })),
  };
}

/** Turn a thrown error (a task that does not load) into an error answer. */
async function attempt<T>(fn: () => T | Promise<T>): Promise<T | ServeError> {
  try {
    return await fn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: string }).code;
    return failure(
      code === "task_not_found" || code === "task_invalid" ? "unknown_task" : "internal",
      message,
    );
  }
}
