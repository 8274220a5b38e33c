/** Driving a policy through a conversation the way the episode does, for the Qwen3 fixture tests. */
import type { ChatMessage, Policy, PolicyTurn } from "../src/policy/types.ts";
import { toolSchemas } from "../src/tools/registry.ts";

/** The opening messages. */
export const OPENING: ChatMessage[] = [
  { role: "system", content: "You fix bugs." },
  { role: "user", content: "Fix median() in stats/summary.py" },
];

/** Raw model outputs: reasoning, then one hermes-style tool call each. */
export const THINKING_OUTPUTS = [
  '<think>\nLook at the tree first.\n</think>\n\n<tool_call>\n{"name": "inspect_tree", "arguments": {}}\n</tool_call>',
  '<think>\nThe median lives in stats.\n</think>\n\n<tool_call>\n{"name": "read_file", "arguments": {"path": "stats/summary.py"}}\n</tool_call>',
  '<think>\nFixed; submit.\n</think>\n\n<tool_call>\n{"name": "submit", "arguments": {"status": "solved", "summary": "sorted first"}}\n</tool_call>',
];

/** The same calls without reasoning (thinking off). */
export const PLAIN_OUTPUTS = THINKING_OUTPUTS.map((o) =>
  o.replace(/^<think>[^]*?<\/think>\n\n/, "")
);

/** Ask the policy `turns` times, appending each reply and one tool result, as `Episode.act` does. */
export async function converse(
  policy: Policy,
  turns: number,
): Promise<{ messages: ChatMessage[]; turns: PolicyTurn[] }> {
  const messages = [...OPENING];
  const out: PolicyTurn[] = [];
  for (let i = 0; i < turns; i++) {
    const turn = await policy.next({ messages, tools: toolSchemas(), maxTokens: 256 });
    out.push(turn);
    messages.push(turn.message);
    const call = turn.calls[0];
    messages.push(
      call
        ? { role: "tool", tool_call_id: call.id, name: call.function.name, content: `result ${i}` }
        : { role: "user", content: "Reply with exactly one tool call." },
    );
  }
  return { messages, turns: out };
}
