/** `search`: ripgrep-style `path:line:text` matches of a pattern across the workspace. */
import { z } from "zod";
import { globToRegExp } from "./_glob.ts";
import { runSearch, searchShares } from "./_search_pool.ts";
import { defineTool, fail, limitsOf } from "./types.ts";

/** Characters with a meaning in a regular expression. */
const REGEX_SYNTAX = /[.*+?^${}()|[\]\\]/;
const REGEX_SYNTAX_ALL = new RegExp(REGEX_SYNTAX.source, "g");

/**
 * How many workers search a repository of `files` files for `input`: several for a big one
 * ({@linkcode searchShares}), only for text that cannot backtrack (a literal, no glob). A worker
 * stuck in a regular expression's backtracking runs on past its deadline (Deno's terminate does
 * not stop it, see `_search_pool.ts`), and one search must not leave several such threads behind.
 */
export function searchSharesOf(
  input: { pattern: string; fixed_strings: boolean; glob?: string },
  files: number,
): number {
  const literal = input.fixed_strings || !REGEX_SYNTAX.test(input.pattern);
  return literal && !input.glob ? searchShares(files) : 1;
}

/** Search file contents for a regular expression or a literal string. */
export const searchTool = defineTool({
  name: "search",
  description:
    "Search file contents like ripgrep: prints 'path:line:text' for each matching line, sorted by path and line. The pattern is a JavaScript regular expression unless fixed_strings is true. Binary files, caches and .git are skipped.",
  input: z.strictObject({
    pattern: z.string().min(1).describe(
      "Regular expression (or literal text with fixed_strings) to find",
    ),
    path: z.string().default(".").describe(
      "File or folder to search, relative to the workspace root (default: the root)",
    ),
    glob: z.string().optional().describe(
      "Only search files whose path matches this glob, e.g. '*.py'",
    ),
    fixed_strings: z.boolean().default(false).describe(
      "Treat the pattern as literal text, not a regex",
    ),
    case_sensitive: z.boolean().default(true).describe("Match case exactly (default true)"),
    max_results: z.number().int().min(1).max(1000).default(100).describe(
      "Most matching lines to show (default 100)",
    ),
  }),
  async run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return fail(target.code, target.message);
    const source = input.fixed_strings
      ? input.pattern.replace(REGEX_SYNTAX_ALL, "\\$&")
      : input.pattern;
    const flags = input.case_sensitive ? "gm" : "gim";
    try {
      new RegExp(source, flags);
    } catch (error) {
      return fail(
        "invalid_regex",
        `Invalid regular expression ${JSON.stringify(input.pattern)}: ${
          (error as Error).message.replace(/^Invalid regular expression: /, "")
        }; fix it or pass fixed_strings: true`,
      );
    }
    const glob = input.glob ? globToRegExp(input.glob) : null;
    const timeoutMs = limitsOf(ctx).searchTimeoutMs;
    const outcome = await runSearch(
      {
        abs: target.abs,
        rel: target.rel,
        isDir: target.isDir,
        source,
        flags,
        glob: glob && { source: glob.source, flags: glob.flags },
        maxResults: input.max_results,
      },
      {
        timeoutMs,
        room: ctx.workspace.scratch,
        shares: searchSharesOf(input, ctx.workspace.original.files.length),
      },
    );
    if (outcome === "timeout") {
      return fail(
        "timeout",
        `Search for ${JSON.stringify(input.pattern)} stopped after ${
          timeoutMs / 1000
        } s: the pattern backtracks too much or the tree is too big; simplify the pattern (avoid nested repetition like (a+)+), use fixed_strings, or narrow the path or glob`,
      );
    }
    const { hits, total, filesWithHits } = outcome;
    if (total === 0) return { ok: true, output: `No matches for ${JSON.stringify(input.pattern)}` };
    const rest = total - hits.length;
    const footer = rest > 0
      ? `\n[${rest} more matching lines not shown (${total} in ${filesWithHits} files); narrow the pattern, path or glob]`
      : "";
    return {
      ok: true,
      output: hits.join("\n") + footer,
      truncated: rest > 0,
      meta: { matches: total },
    };
  },
});
