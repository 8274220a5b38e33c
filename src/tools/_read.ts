/** Loading a file the model named, bounded: its size is checked before any byte is read. */
import { formatBytes } from "../workspace/limits.ts";
import { decodeText } from "../workspace/text.ts";
import { fail, limitsOf, type ToolContext, type ToolResult } from "./types.ts";

/** Files up to this size are read synchronously: faster, and it blocks for well under 1 ms. */
const SYNC_READ_BYTES = 256 * 1024;

/**
 * The text of the file at `abs` (shown to the model as `rel`); or a `file_too_large` error when it
 * is over the limit, or `binary_file`. Big files are read asynchronously, off the thread.
 */
export async function readTextFile(
  ctx: ToolContext,
  target: { abs: string; rel: string },
  action: "read" | "edited",
): Promise<{ ok: true; text: string } | ToolResult & { ok: false }> {
  const limit = limitsOf(ctx).maxFileBytes;
  const { size } = Deno.statSync(target.abs);
  if (size > limit) {
    return fail(
      "file_too_large",
      `File "${target.rel}" is ${formatBytes(size)}, over the ${
        formatBytes(limit)
      } limit for files that can be ${action}; use search to find the lines you need`,
    ) as ToolResult & { ok: false };
  }
  const text = decodeText(
    size <= SYNC_READ_BYTES ? Deno.readFileSync(target.abs) : await Deno.readFile(target.abs),
  );
  if (text === null) {
    return fail(
      "binary_file",
      `File "${target.rel}" is binary; only text files can be ${action}`,
    ) as ToolResult & { ok: false };
  }
  return { ok: true, text };
}
