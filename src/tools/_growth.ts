/** The check after a tool that runs code: the workspace must not grow past its cap. */
import { growthProblem } from "../workspace/limits.ts";
import { limitsOf, type ToolContext, type ToolResult } from "./types.ts";

/**
 * `result`, or a `workspace_too_large` error carrying its output when the code it ran left the
 * workspace over its size cap, so the model learns at once which files to delete.
 */
export async function checkGrowth(result: ToolResult, ctx: ToolContext): Promise<ToolResult> {
  const limits = limitsOf(ctx);
  const problem = await growthProblem(ctx.workspace.dir, ctx.workspace.original, {
    maxGrowth: limits.maxGrowthBytes,
    maxDiffBytes: limits.maxDiffBytes,
  });
  if (!problem) return result;
  const output = result.ok ? result.output : result.message;
  return {
    ok: false,
    code: "workspace_too_large",
    message: `${problem}\n${output}`,
    meta: result.meta,
  };
}
