import assert from "node:assert/strict";
import { assistantTurn, MAX_TOOL_CALLS } from "../../src/policy/assistant_turn.ts";

const EXTRAS = { tokens: null, usage: null, finish_reason: "tool_calls", latency_ms: 0 };

Deno.test("assistantTurn() reads at most MAX_TOOL_CALLS native tool calls of one message, and says so", () => {
  // Each call past the first is answered in a message of its own that stays in the conversation:
  // a policy's message of thousands of calls must not make a conversation that size.
  const call = (i: number) => ({
    id: `c${i}`,
    type: "function" as const,
    function: { name: "read_file", arguments: JSON.stringify({ path: `f${i}.py` }) },
  });
  const many = assistantTurn(
    { content: null, tool_calls: Array.from({ length: MAX_TOOL_CALLS + 10 }, (_, i) => call(i)) },
    0,
    EXTRAS,
  );
  assert.equal(many.message.tool_calls?.length, MAX_TOOL_CALLS);
  assert.equal(many.message.tool_calls?.[0].id, "c0");
  assert.deepEqual(many.parse_errors, [
    `${MAX_TOOL_CALLS + 10} tool calls in one message; only the first ${MAX_TOOL_CALLS} were read`,
  ]);
  const few = assistantTurn({ content: null, tool_calls: [call(0), call(1)] }, 0, EXTRAS);
  assert.equal(few.message.tool_calls?.length, 2);
  assert.deepEqual(few.parse_errors, []);
});
