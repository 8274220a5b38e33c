/** `list_files`: every file path in the workspace, optionally filtered by a glob. */
import { z } from "zod";
import { globToRegExp } from "./_glob.ts";
import { runMatch } from "./_search_pool.ts";
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
  async run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return fail(target.code, target.message);
    if (!target.isDir) return fail("invalid_input", `Path "${target.rel}" is a file, not a folder`);
    const prefix = target.rel === "." ? "" : target.rel;
    let found: { path: string; kind: string }[] = [];
    let stopped = false;
    const limits = limitsOf(ctx);
    const maxEntries = limits.maxListEntries;
    for (const entry of walk(target.abs, prefix, { maxEntries })) {
      if (entry.kind === "stopped") stopped = true;
      else if (entry.kind !== "dir") found.push(entry);
    }
    if (input.glob) {
      // Matched in a worker, under the search's deadline: a glob's regular expression can
      // backtrack for minutes on one long name (`*a*a*a*a*b`), and this thread serves every
      // episode of the process.
      const glob = globToRegExp(input.glob);
      const outcome = await runMatch(
        {
          paths: found.map((entry) => entry.path),
          glob: { source: glob.source, flags: glob.flags },
        },
        { timeoutMs: limits.searchTimeoutMs, room: ctx.workspace.scratch },
      );
      if (outcome === "timeout") {
        return fail(
          "timeout",
          `Matching the glob ${JSON.stringify(input.glob)} stopped after ${
            limits.searchTimeoutMs / 1000
          } s: it backtracks too much on these paths; use fewer "*" or a plainer glob`,
        );
      }
      found = outcome.matched.map((i) => found[i]);
    }
    const total = found.length;
    const files = found.slice(0, MAX_FILES).map((entry) =>
      entry.kind === "symlink" ? `${entry.path} (symlink)` : entry.path
    );
    const stop = stopped
      ? `\n[stopped after reading ${maxEntries} entries: the tree is too big to list whole; list a subfolder or narrow the glob]`
      : "";
    if (total === 0 && !stopped) {
      return { ok: true, output: input.glob ? `No files match "${input.glob}"` : "No files" };
    }
    const note = total > files.length
      ? `\n[${total - files.length} more files not shown; narrow the glob or path]`
      : "";
    return {
      ok: true,
      output: files.join("\n") + note + stop,
      truncated: total > files.length || stopped,
    };
  },
});
