/** `list_files`: every file path in the workspace, optionally filtered by a glob. */
import { z } from "zod";
import { globToRegExp } from "./_glob.ts";
import { walk } from "../workspace/walk.ts";
import { defineTool, fail, limitsOf } from "./types.ts";

const MAX_FILES = 500;

/** List files, sorted, optionally matching a glob. */
export const listFilesTool = defineTool({
  name: "list_files",
  description:
    "List the files of the workspace, one relative path per line, sorted. Optionally filter with a glob such as '*.py' (matches in any folder) or 'src/**/*.ts'. Caches and .git are skipped.",
  input: z.strictObject({
    glob: z.string().optional().describe("Glob to filter paths, e.g. '*.py' or 'src/**/test_*.py'"),
    path: z.string().default(".").describe(
      "Folder to list, relative to the workspace root (default: the root)",
    ),
  }),
  run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return Promise.resolve(fail(target.code, target.message));
    if (!target.isDir) {
      return Promise.resolve(fail("invalid_input", `Path "${target.rel}" is a file, not a folder`));
    }
    const pattern = input.glob ? globToRegExp(input.glob) : null;
    const prefix = target.rel === "." ? "" : target.rel;
    const files: string[] = [];
    let total = 0;
    let stopped = false;
    const maxEntries = limitsOf(ctx).maxListEntries;
    for (const entry of walk(target.abs, prefix, { maxEntries })) {
      if (entry.kind === "stopped") stopped = true;
      if (entry.kind === "dir" || entry.kind === "stopped") continue;
      if (pattern && !pattern.test(entry.path)) continue;
      total++;
      if (files.length < MAX_FILES) {
        files.push(entry.kind === "symlink" ? `${entry.path} (symlink)` : entry.path);
      }
    }
    const stop = stopped
      ? `\n[stopped after reading ${maxEntries} entries: the tree is too big to list whole; list a subfolder or narrow the glob]`
      : "";
    if (total === 0 && !stopped) {
      return Promise.resolve({
        ok: true,
        output: input.glob ? `No files match "${input.glob}"` : "No files",
      });
    }
    const note = total > files.length
      ? `\n[${total - files.length} more files not shown; narrow the glob or path]`
      : "";
    return Promise.resolve({
      ok: true,
      output: files.join("\n") + note + stop,
      truncated: total > files.length || stopped,
    });
  },
});
