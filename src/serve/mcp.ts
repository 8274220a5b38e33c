/**
 * OpenEnv's MCP surface over the protocol core: JSON-RPC 2.0 `tools/list` and `tools/call` for the
 * agent tools, and OpenEnv's session methods `openenv/session/create` and `openenv/session/close`
 * (what its `MCPToolClient` sends to `POST /mcp`). Read from meta-pytorch/OpenEnv at commit
 * 685de411e5f77286b0fd94798d42c4467cf8a1bc (`src/openenv/core/env_server/http_server.py`
 * `mcp_handler`, `mcp_types.py`, `src/openenv/core/mcp_client.py`, `rfcs/003-mcp-support.md`):
 *
 *   {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}
 *        -> {"jsonrpc":"2.0","id":1,"result":{"tools":[{name, description, inputSchema}]}}
 *   {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name","arguments","session_id"}}
 *        -> {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text"}],"isError",
 *            "data","structuredContent":{episode_id, reward, done, terminated, truncated,
 *            stop_reason, info, record at the end}}}
 *   errors -> {"jsonrpc":"2.0","id":...,"error":{"code":-32xxx,"message","data":{"error_code"}}}
 *
 * A session is an episode: `openenv/session/create` takes the options of a reset and answers the
 * reset with `session_id` (the episode id). A request acts on the episode its `session_id` names
 * or, on a WebSocket, on the connection's episode; plain HTTP keeps no state, so there the id is
 * what ties calls together, as the episode id does on `/step`. A `tools/call` is one step of that
 * episode, sent to the protocol core as the assistant message with that one tool call: limits,
 * the workspace guard, the sandbox, the trajectory record and grading apply as to any step, and a
 * `submit` ends and grades the episode.
 */
import { z } from "zod";
import { TOOLS, toolSchemas } from "../tools/registry.ts";
import { VERSION } from "../version.ts";
import { failure, firstIssue, type ServeError, type ServeErrorCode } from "./protocol.ts";
import type { Episodes, StepAnswer } from "./server.ts";

/** A JSON-RPC request id; null when the request had none or it could not be read. */
export type JsonRpcId = string | number | null;

/** Error codes of an MCP answer: the protocol's, plus the two only MCP requests can meet. */
export type McpErrorCode = ServeErrorCode | "unknown_method" | "unknown_tool";

/** A JSON-RPC 2.0 answer, with a result or an error. */
export type JsonRpcResponse =
  & { jsonrpc: "2.0"; id: JsonRpcId }
  & (
    | { result: unknown }
    | { error: { code: number; message: string; data: { error_code: McpErrorCode } } }
  );

/**
 * The episode a connection's MCP requests act on when they name none: a WebSocket's, or on
 * `POST /mcp` the one its `Mcp-Session-Id` header names.
 */
export interface McpBinding {
  episodeId: string | undefined;
  /**
   * Reset options for the episode an `initialize` opens (MCP's HTTP transport: the session is an
   * episode, its id the `Mcp-Session-Id`); absent where `initialize` opens none.
   */
  open?: Record<string, unknown>;
}

/** JSON-RPC 2.0's error codes, as OpenEnv's `JsonRpcErrorCode` names them. */
export const JSON_RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  SERVER_ERROR: -32000,
} as const;

/** The JSON-RPC code of each patchgym code (OpenEnv answers an unknown session with -32602). */
const RPC_CODES: Record<McpErrorCode, number> = {
  bad_json: JSON_RPC.PARSE_ERROR,
  bad_request: JSON_RPC.INVALID_PARAMS,
  line_too_long: JSON_RPC.INVALID_REQUEST,
  too_deep: JSON_RPC.INVALID_REQUEST,
  unknown_method: JSON_RPC.METHOD_NOT_FOUND,
  unknown_tool: JSON_RPC.INVALID_PARAMS,
  unknown_task: JSON_RPC.INVALID_PARAMS,
  unknown_episode: JSON_RPC.INVALID_PARAMS,
  episode_expired: JSON_RPC.INVALID_PARAMS,
  episode_exists: JSON_RPC.INVALID_PARAMS,
  episode_done: JSON_RPC.SERVER_ERROR,
  too_many_episodes: JSON_RPC.SERVER_ERROR,
  too_busy: JSON_RPC.SERVER_ERROR,
  too_slow: JSON_RPC.INVALID_REQUEST,
  over_quota: JSON_RPC.SERVER_ERROR,
  forbidden: JSON_RPC.INVALID_REQUEST,
  environment_error: JSON_RPC.INTERNAL_ERROR,
  internal: JSON_RPC.INTERNAL_ERROR,
};

/** The methods, for messages. */
const METHODS =
  "initialize, ping, tools/list, tools/call, openenv/session/create and openenv/session/close";

/**
 * MCP protocol versions whose tool methods these answers fit; `initialize` agrees to the client's
 * when it is one of them, else offers the newest (the client then decides, as MCP's lifecycle
 * says).
 */
export const MCP_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05"] as const;

/** OpenEnv's `JsonRpcRequest`: no other fields; `params` an object. */
const RpcRequestSchema = z.strictObject({
  jsonrpc: z.literal("2.0"),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z.union([z.string(), z.number()]).nullish(),
});

const SessionParamsSchema = z.object({ session_id: z.string().optional() });

const CallParamsSchema = SessionParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});

/** A JSON-RPC error answer. */
export function rpcError(
  id: JsonRpcId,
  code: McpErrorCode,
  message: string,
  rpcCode: number = RPC_CODES[code],
): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code: rpcCode, message, data: { error_code: code } } };
}

/** The JSON-RPC error answer of a protocol error. */
export function rpcFailure(id: JsonRpcId, answer: ServeError): JsonRpcResponse {
  return rpcError(id, answer.error.code, answer.error.message);
}

/**
 * Answer one parsed JSON-RPC request. `binding` is the episode of the request's connection: a
 * WebSocket's, or on `POST /mcp` its session header's (none: the request acts only on the episode
 * it names). A notification (`notifications/...`, such as
 * the `notifications/initialized` an MCP client sends after `initialize`) gets no answer: null.
 * Never throws.
 */
export async function mcpRequest(
  server: Episodes,
  data: unknown,
  binding: McpBinding,
): Promise<JsonRpcResponse | null> {
  const rawId = typeof data === "object" && data !== null && !Array.isArray(data)
    ? (data as { id?: unknown }).id
    : undefined;
  const id = typeof rawId === "string" || typeof rawId === "number" ? rawId : null;
  const parsed = RpcRequestSchema.safeParse(data);
  if (!parsed.success) {
    return rpcError(
      id,
      "bad_request",
      `Invalid JSON-RPC request: ${firstIssue(parsed.error, data)}`,
      JSON_RPC.INVALID_REQUEST,
    );
  }
  const { method, params = {} } = parsed.data;
  if (method.startsWith("notifications/") && parsed.data.id == null) return null;
  try {
    switch (method) {
      case "initialize":
        return await initialize(server, id, params, binding);
      case "ping":
        return { jsonrpc: "2.0", id, result: {} };
      case "tools/list":
        return await listTools(server, id, params);
      case "tools/call":
        return await callToolRequest(server, id, params, binding);
      case "openenv/session/create":
        return await createSession(server, id, params, binding);
      case "openenv/session/close":
        return await closeSession(server, id, params, binding);
    }
  } catch (error) {
    return rpcError(id, "internal", error instanceof Error ? error.message : String(error));
  }
  return rpcError(id, "unknown_method", `Method "${method}" not found; methods are ${METHODS}`);
}

/**
 * MCP's `InitializeResult`: the agreed version, the tools capability, who answers. Where the
 * binding asks for it, a new episode too: the session, whose task statement the instructions carry.
 */
async function initialize(
  server: Episodes,
  id: JsonRpcId,
  params: Params,
  binding: McpBinding,
): Promise<JsonRpcResponse> {
  const asked = params.protocolVersion;
  const known = (MCP_PROTOCOL_VERSIONS as readonly unknown[]).includes(asked);
  let instructions =
    "The tools act on one episode (a task's workspace): open it with openenv/session/create {task_id} and pass its session_id to tools/call; submit ends and grades it.";
  if (binding.open) {
    const answer = await server.request({ ...binding.open, op: "reset" });
    if ("error" in answer) return rpcFailure(id, answer as unknown as ServeError);
    binding.episodeId = answer.episode_id as string;
    const messages = answer.messages as { role: string; content: string }[];
    instructions = [
      ...messages.map((m) => m.content),
      "Use the tools to solve the task in this session's workspace; submit ends the session and grades it.",
    ].join("\n\n");
  }
  return {
    jsonrpc: "2.0",
    id,
    result: {
      protocolVersion: known ? asked : MCP_PROTOCOL_VERSIONS[0],
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: "patchgym", version: VERSION },
      instructions,
    },
  };
}

/** Every agent tool as MCP lists it. */
export function mcpTools(): { name: string; description: string; inputSchema: unknown }[] {
  return toolSchemas().map(({ function: f }) => ({
    name: f.name,
    description: f.description,
    inputSchema: f.parameters,
  }));
}

/**
 * Call one agent tool as one step of an open episode. Answers the step and its MCP result, or why
 * no step was taken (an unknown tool takes none, as OpenEnv refuses it before calling).
 */
export async function callTool(
  server: Episodes,
  episodeId: string,
  call: { id?: string; name: string; arguments: Record<string, unknown> },
): Promise<{ answer: StepAnswer; result: McpToolResult } | ServeError | UnknownTool> {
  if (!TOOLS.some((tool) => tool.name === call.name)) {
    return {
      error: {
        code: "unknown_tool",
        message: `Unknown tool "${call.name}"; use one of: ${TOOLS.map((t) => t.name).join(", ")}`,
      },
    };
  }
  const answer = await server.request({
    op: "step",
    episode_id: episodeId,
    message: {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }],
    },
  });
  if ("error" in answer) return answer as unknown as ServeError;
  const step = answer as unknown as StepAnswer;
  return { answer: step, result: toolResult(episodeId, step) };
}

/** An unknown tool, refused before any step. */
export interface UnknownTool {
  error: { code: "unknown_tool"; message: string };
}

/** MCP's `CallToolResult`, plus the `data` OpenEnv's client returns from `call_tool`. */
export interface McpToolResult {
  content: { type: "text"; text: string }[];
  /** The tool failed (an observation for the model, like any failed tool call). */
  isError: boolean;
  /** The tool's output text, what OpenEnv's `MCPToolClient.call_tool` returns. */
  data: string;
  /** The step's facts in the native step answer's shape (`record` at the end). */
  structuredContent: Record<string, unknown>;
}

function toolResult(episodeId: string, step: StepAnswer): McpToolResult {
  // An empty observation means the step itself failed (environment_error, see `step`).
  const tool = step.observation.length > 0 ? step.info.tool as { ok: boolean } | null : null;
  const error = step.info.error as { code: string; message: string } | null;
  const text = step.observation.length > 0
    ? step.observation.map((m) => (m as { content: string }).content).join("\n")
    : `Error [${error?.code ?? "internal"}]: ${error?.message ?? "the step failed"}`;
  return {
    content: [{ type: "text", text }],
    isError: !(tool?.ok ?? false),
    data: text,
    structuredContent: {
      episode_id: episodeId,
      reward: step.reward,
      done: step.done,
      terminated: step.terminated,
      truncated: step.truncated,
      stop_reason: step.stop_reason,
      info: step.info,
      ...(step.record ? { record: step.record } : {}),
    },
  };
}

type Params = Record<string, unknown>;

/** The episode a request acts on: the one it names, else its connection's. */
function episodeOf(params: Params, binding: McpBinding): string | undefined {
  const named = params.session_id;
  return typeof named === "string" ? named : binding.episodeId;
}

async function listTools(
  server: Episodes,
  id: JsonRpcId,
  params: Params,
): Promise<JsonRpcResponse> {
  const parsed = SessionParamsSchema.safeParse(params);
  if (!parsed.success) return invalidParams(id, "tools/list", parsed.error, params);
  // Listing needs no episode (OpenEnv: no reset first); a named one must be open.
  if (parsed.data.session_id !== undefined) {
    const state = await server.request({ op: "state", episode_id: parsed.data.session_id });
    if ("error" in state) return rpcFailure(id, state as unknown as ServeError);
  }
  return { jsonrpc: "2.0", id, result: { tools: mcpTools() } };
}

async function callToolRequest(
  server: Episodes,
  id: JsonRpcId,
  params: Params,
  binding: McpBinding,
): Promise<JsonRpcResponse> {
  const parsed = CallParamsSchema.safeParse(params);
  if (!parsed.success) return invalidParams(id, "tools/call", parsed.error, params);
  const episodeId = episodeOf(params, binding);
  if (episodeId === undefined) {
    return rpcFailure(
      id,
      failure(
        "unknown_episode",
        "No episode: open one with initialize (MCP's HTTP session) or openenv/session/create, or name it in params.session_id",
      ),
    );
  }
  const called = await callTool(server, episodeId, {
    // The call's id in the conversation: from the client's JSON-RPC id, so a replay can match it
    // (without one, the step numbers it).
    id: id === null ? undefined : `call_${id}`,
    name: parsed.data.name,
    arguments: parsed.data.arguments ?? {},
  });
  if ("error" in called) return rpcError(id, called.error.code, called.error.message);
  return { jsonrpc: "2.0", id, result: called.result };
}

async function createSession(
  server: Episodes,
  id: JsonRpcId,
  params: Params,
  binding: McpBinding,
): Promise<JsonRpcResponse> {
  const { session_id: _, id: __, ...options } = params;
  // A new session on a connection replaces its episode, as a reset on /ws does.
  if (binding.episodeId) {
    await server.request({ op: "close", episode_id: binding.episodeId });
    binding.episodeId = undefined;
  }
  const answer = await server.request({ ...options, op: "reset" });
  if ("error" in answer) return rpcFailure(id, answer as unknown as ServeError);
  const episodeId = answer.episode_id as string;
  binding.episodeId = episodeId;
  return { jsonrpc: "2.0", id, result: { session_id: episodeId, ...answer } };
}

async function closeSession(
  server: Episodes,
  id: JsonRpcId,
  params: Params,
  binding: McpBinding,
): Promise<JsonRpcResponse> {
  const parsed = SessionParamsSchema.safeParse(params);
  if (!parsed.success) return invalidParams(id, "openenv/session/close", parsed.error, params);
  const episodeId = episodeOf(params, binding);
  if (episodeId === undefined) {
    return rpcError(
      id,
      "bad_request",
      "openenv/session/close: give the session_id to close",
    );
  }
  const answer = await server.request({ op: "close", episode_id: episodeId });
  if ("error" in answer) return rpcFailure(id, answer as unknown as ServeError);
  if (binding.episodeId === episodeId) binding.episodeId = undefined;
  return { jsonrpc: "2.0", id, result: { session_id: episodeId, closed: true } };
}

function invalidParams(
  id: JsonRpcId,
  method: string,
  error: z.ZodError,
  params: Params,
): JsonRpcResponse {
  return rpcError(id, "bad_request", `${method}: ${firstIssue(error, params)}`);
}
