/** Helpers for the tool tests: call a tool with defaults applied and unpack its result. */
import assert from "node:assert/strict";
import type { Tool, ToolContext, ToolErrorCode, ToolResult } from "../../src/tools/types.ts";

/** Parse `args` with the tool's schema (applying defaults) and run the tool. */
export function call(
  tool: Tool,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  return tool.run(tool.input.parse(args), ctx);
}

/** The output of a successful result; fails the test otherwise. */
export function okOutput(result: ToolResult): string {
  assert.ok(result.ok, `expected success, got ${JSON.stringify(result)}`);
  return result.output;
}

/** The message of a failed result with `code`; fails the test otherwise. */
export function failMessage(result: ToolResult, code: ToolErrorCode): string {
  assert.ok(!result.ok, `expected "${code}", got success: ${JSON.stringify(result)}`);
  assert.equal(result.code, code, result.message);
  return result.message;
}
