/** `inspect_tree`: a depth-limited view of the workspace's folders and files. */
import { z } from "zod";
import { walk } from "../workspace/walk.ts";
import { defineTool, fail, limitsOf } from "./types.ts";

const MAX_ENTRIES = 400;

/** Show the folder structure under a path, a few levels deep. */
export const inspectTreeTool = defineTool({
  name: "inspect_tree",
  description:
    "Show the folder tree of the workspace (or of one folder in it), a few levels deep. Folders end with '/'; caches and .git are skipped. Start here to see how the project is laid out.",
  input: z.strictObject({
    path: z.string().default(".").describe(
      "Folder to show, relative to the workspace root (default: the root)",
    ),
    depth: z.number().int().min(1).max(8).default(3).describe(
      "How many levels to show (1-8, default 3)",
    ),
  }),
  run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return Promise.resolve(fail(target.code, target.message));
    if (!target.isDir) {
      return Promise.resolve(
        fail(
          "invalid_input",
          `Path "${target.rel}" is a file, not a folder; use read_file to read it`,
        ),
      );
    }
    const prefix = target.rel === "." ? "" : target.rel;
    const lines = [`${prefix || "."}/`];
    let shown = 0;
    let omitted = 0;
    let stopped = false;
    const maxEntries = limitsOf(ctx).maxListEntries;
    for (const entry of walk(target.abs, prefix, { maxDepth: input.depth, maxEntries })) {
      if (entry.kind === "stopped") {
        stopped = true;
        continue;
      }
      if (shown >= MAX_ENTRIES) {
        omitted++;
        continue;
      }
      const name = entry.path.slice(entry.path.lastIndexOf("/") + 1);
      const suffix = entry.kind === "dir" ? "/" : entry.kind === "symlink" ? " -> (symlink)" : "";
      lines.push(`${"  ".repeat(entry.depth)}${name}${suffix}`);
      shown++;
    }
    if (omitted > 0) {
      lines.push(
        `[${omitted} more entries not shown; inspect a subfolder or use list_files with a glob]`,
      );
    }
    if (stopped) {
      lines.push(
        `[stopped after reading ${maxEntries} entries: the tree is too big to list whole; inspect a subfolder]`,
      );
    }
    return Promise.resolve({
      ok: true,
      output: lines.join("\n"),
      truncated: omitted > 0 || stopped,
    });
  },
});
