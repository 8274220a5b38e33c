/** The `apply_patch` tool: change, create, delete and rename files with one patch, all or nothing. */
import { z } from "zod";
import { applyFilePatches, type FileChange } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { isProtected } from "../task/protected.ts";
import { formatBytes } from "../workspace/limits.ts";
import { defineTool, fail, limitsOf, pathDepth } from "./types.ts";

/** Apply a unified diff or a `*** Begin Patch` envelope to the workspace. */
export const applyPatchTool = defineTool({
  name: "apply_patch",
  description:
    'Apply a patch to files in the workspace. Accepts a unified diff as written by "git diff" or "diff -u" (several files, new, deleted and renamed files), or the "*** Begin Patch" envelope with "*** Add File:", "*** Update File:", "*** Delete File:" and "*** Move to:" sections. The patch applies all or nothing: if any hunk\'s context lines do not match, no file changes and the error shows the file\'s actual lines.',
  input: z.strictObject({
    patch: z.string().describe(
      'The patch text: "--- a/path" and "+++ b/path" headers with "@@ -start,count +start,count @@" hunks whose lines start with " " (context), "-" (removed) or "+" (added), or "*** Begin Patch" ... "*** End Patch". Paths are relative to the workspace root; copy context lines exactly from the file.',
    ),
  }),
  async run({ patch }, ctx) {
    const limits = limitsOf(ctx);
    const started = performance.now();
    // Bounds first, before the text is parsed: a patch is the cheapest way to make the orchestrator
    // write (60,000 new files in one call held a process for minutes).
    const bytes = new TextEncoder().encode(patch).length;
    if (bytes > limits.maxWriteBytes) {
      return fail(
        "patch_too_large",
        `Cannot apply patch: it holds ${formatBytes(bytes)}, over the ${
          formatBytes(limits.maxWriteBytes)
        } limit of one patch; split it into smaller patches`,
      );
    }
    const parsed = parsePatch(patch);
    if (!parsed.ok) return fail("invalid_input", parsed.message);
    if (parsed.files.length > limits.maxPatchFiles) {
      return fail(
        "patch_too_large",
        `Cannot apply patch: it changes ${parsed.files.length} files, over the limit of ${limits.maxPatchFiles} per patch; split it into smaller patches`,
      );
    }
    for (const file of parsed.files) {
      for (const path of [file.from, file.to]) {
        if (path !== null && pathDepth(path) > limits.maxPathDepth) {
          return fail(
            "path_too_deep",
            `Cannot apply patch to "${path.slice(0, 120)}...": it is ${
              pathDepth(path)
            } folders deep, over the limit of ${limits.maxPathDepth}; use a shallower path`,
          );
        }
      }
    }
    const applied = await applyFilePatches(ctx.workspace.dir, parsed.files, {
      isProtected: (path) => isProtected(ctx.protectedPaths, path),
      maxFileBytes: limits.maxFileBytes,
      deadline: started + limits.writeTimeoutMs,
    });
    if (!applied.ok) return fail(applied.code, applied.message);
    return { ok: true, output: summarize(applied.changed), meta: { changed: applied.changed } };
  },
});

/** Changes named one by one in the reply; the rest are counted. */
const NAMED_CHANGES = 50;

/**
 * `Applied patch: modified src/a.py, created src/b.py, renamed old.py to new.py`, naming at most
 * {@linkcode NAMED_CHANGES} changes so the reply stays small.
 */
function summarize(changed: FileChange[]): string {
  const parts = changed.slice(0, NAMED_CHANGES).map((change) =>
    change.kind === "renamed"
      ? `renamed ${change.from} to ${change.path}`
      : `${change.kind} ${change.path}`
  );
  if (changed.length > NAMED_CHANGES) {
    parts.push(`and ${changed.length - NAMED_CHANGES} more files`);
  }
  return `Applied patch: ${parts.join(", ") || "no changes"}`;
}
