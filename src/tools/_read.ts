/** Loading a file the model named, bounded: its size is checked before any byte is read. */
import { formatBytes } from "../workspace/limits.ts";
import { decodeText } from "../workspace/diff.ts";
import { fail, limitsOf, type ToolContext, type ToolResult } from "./types.ts";

/**
 * The text of the file at `abs` (shown to the model as `rel`), read asynchronously; or a
 * `file_too_large` error when it is over the limit, or `binary_file`.
 */
export async function readTextFile(
  ctx: ToolContext,
  target: { abs: string; rel: string },
  action: "read" | "edited",
): Promise<{ ok: true; text: string } | ToolResult & { ok: false }> {
  const limit = limitsOf(ctx).maxFileBytes;
  const { size } = await Deno.stat(target.abs);
  if (size > limit) {
    return fail(
      "file_too_large",
      `File "${target.rel}" is ${formatBytes(size)}, over the ${
        formatBytes(limit)
      } limit for files that can be ${action}; use search to find the lines you need`,
    ) as ToolResult & { ok: false };
  }
  const text = decodeText(await Deno.readFile(target.abs));
  if (text === null) {
    return fail(
      "binary_file",
      `File "${target.rel}" is binary; only text files can be ${action}`,
    ) as ToolResult & { ok: false };
  }
  return { ok: true, text };
}
