/**
 * From an assistant message as a model or trainer produced it to a policy turn: native tool calls
 * normalized (arguments as JSON strings, ids filled in), or, when there are none, tool calls parsed
 * from the text for models served without a tool parser.
 */
import { parseTextToolCalls } from "./text_tool_calls.ts";
import type { AssistantMessage, ChatToolCall, PolicyTurn } from "./types.ts";

/**
 * Most tool calls read from one message (models make a handful at once). The first runs; each
 * other one is answered "one call per turn" in a message of its own, kept in the conversation, so
 * without a cap one message of many thousands of calls made an answer and a conversation that size.
 */
export const MAX_TOOL_CALLS = 64;

/** A tool call as received: arguments may be a string or an object, the id may be missing. */
export interface ReceivedToolCall {
  id?: string | null;
  function: { name: string; arguments?: string | Record<string, unknown> | null };
}

/** An assistant message as received. */
export interface ReceivedMessage {
  content?: string | null;
  tool_calls?: ReceivedToolCall[] | null;
  reasoning?: string | null;
}

/** Facts about the turn that do not come from the message itself. */
export type TurnExtras = Pick<PolicyTurn, "tokens" | "usage" | "finish_reason" | "latency_ms">;

/** Build the turn; `index` numbers the ids of calls that came without one. */
export function assistantTurn(
  message: ReceivedMessage,
  index: number,
  extras: TurnExtras,
): PolicyTurn {
  const content = message.content ?? null;
  let reasoning = message.reasoning ?? null;
  const received = message.tool_calls ?? [];
  let calls: ChatToolCall[] = received.slice(0, MAX_TOOL_CALLS).map((call, i) => ({
    id: call.id ?? `call_${index}_${i}`,
    type: "function",
    function: {
      name: call.function.name,
      arguments: typeof call.function.arguments === "string"
        ? call.function.arguments
        : JSON.stringify(call.function.arguments ?? {}),
    },
  }));
  const parseErrors: string[] = [];
  if (received.length > MAX_TOOL_CALLS) {
    parseErrors.push(
      `${received.length} tool calls in one message; only the first ${MAX_TOOL_CALLS} were read`,
    );
  }
  // Calls found in the text stay in the text: also adding them as tool_calls would make the next
  // prompt render them twice.
  const native = calls.length > 0;
  if (!native && content) {
    const parsed = parseTextToolCalls(content);
    reasoning ??= parsed.reasoning;
    parseErrors.push(...parsed.errors.slice(0, MAX_TOOL_CALLS).map((e) => e.message));
    if (parsed.errors.length > MAX_TOOL_CALLS) {
      parseErrors.push(`${parsed.errors.length - MAX_TOOL_CALLS} more unreadable tool calls`);
    }
    if (parsed.calls.length > MAX_TOOL_CALLS) {
      parseErrors.push(
        `${parsed.calls.length} tool calls in one message; only the first ${MAX_TOOL_CALLS} were read`,
      );
    }
    calls = parsed.calls.slice(0, MAX_TOOL_CALLS).map((call, i) => ({
      id: `call_${index}_${i}`,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  const assistant: AssistantMessage = {
    role: "assistant",
    content,
    ...(native ? { tool_calls: calls } : {}),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
  };
  return {
    message: assistant,
    calls,
    raw: { content, reasoning, tool_calls: message.tool_calls ?? null },
    parse_errors: parseErrors,
    ...extras,
  };
}
