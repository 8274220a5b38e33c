/** Building policy turns that did not come from a model (reference and scripted policies). */
import type { ChatToolCall, PolicyTurn } from "./types.ts";

/** A call to give a turn: tool name and arguments object. */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A turn with the given tool calls (none = a reply without a call) and optional text. */
export function plannedTurn(
  index: number,
  calls: PlannedCall[],
  content: string | null = null,
): PolicyTurn {
  const toolCalls: ChatToolCall[] = calls.map((call, i) => ({
    id: `call_${index}_${i}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    message: {
      role: "assistant",
      content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    },
    calls: toolCalls,
    raw: { content, reasoning: null, tool_calls: toolCalls.length > 0 ? toolCalls : null },
    parse_errors: [],
    tokens: null,
    usage: null,
    finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
    latency_ms: 0,
  };
}
