/** The `apply_patch` tool: change, create, delete and rename files with one patch, all or nothing. */
import { z } from "zod";
import { applyFilePatches, type FileChange } from "../patch/apply.ts";
import { parsePatch } from "../patch/parse.ts";
import { isProtected } from "../task/protected.ts";
import { defineTool, fail, limitsOf } from "./types.ts";

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
    const parsed = parsePatch(patch);
    if (!parsed.ok) return fail("invalid_input", parsed.message);
    const applied = await applyFilePatches(ctx.workspace.dir, parsed.files, {
      isProtected: (path) => isProtected(ctx.protectedPaths, path),
      maxFileBytes: limitsOf(ctx).maxFileBytes,
    });
    if (!applied.ok) return fail(applied.code, applied.message);
    return { ok: true, output: summarize(applied.changed), meta: { changed: applied.changed } };
  },
});

/** `Applied patch: modified src/a.py, created src/b.py, renamed old.py to new.py`. */
function summarize(changed: FileChange[]): string {
  const parts = changed.map((change) =>
    change.kind === "renamed"
      ? `renamed ${change.from} to ${change.path}`
      : `${change.kind} ${change.path}`
  );
  return `Applied patch: ${parts.join(", ") || "no changes"}`;
}
