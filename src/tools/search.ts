/** `search`: ripgrep-style `path:line:text` matches of a pattern across the workspace. */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { globToRegExp } from "./_glob.ts";
import { walk } from "./_walk.ts";
import { defineTool, fail } from "./types.ts";

const MAX_LINE_CHARS = 300;
const BINARY_SNIFF_BYTES = 8192;

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
  run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return Promise.resolve(fail(target.code, target.message));
    const source = input.fixed_strings
      ? input.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      : input.pattern;
    let regex: RegExp;
    try {
      regex = new RegExp(source, input.case_sensitive ? "gm" : "gim");
    } catch (error) {
      return Promise.resolve(fail(
        "invalid_regex",
        `Invalid regular expression ${JSON.stringify(input.pattern)}: ${
          (error as Error).message.replace(/^Invalid regular expression: /, "")
        }; fix it or pass fixed_strings: true`,
      ));
    }
    const glob = input.glob ? globToRegExp(input.glob) : null;
    const files = target.isDir
      ? walkFiles(target.abs, target.rel === "." ? "" : target.rel, glob)
      : [[target.rel, target.abs] as const];
    const hits: string[] = [];
    let total = 0;
    let filesWithHits = 0;
    for (const [rel, abs] of files) {
      const found = searchFile(abs, rel, regex, hits, input.max_results - hits.length);
      total += found;
      if (found > 0) filesWithHits++;
    }
    if (total === 0) {
      return Promise.resolve({
        ok: true,
        output: `No matches for ${JSON.stringify(input.pattern)}`,
      });
    }
    const rest = total - hits.length;
    const footer = rest > 0
      ? `\n[${rest} more matching lines not shown (${total} in ${filesWithHits} files); narrow the pattern, path or glob]`
      : "";
    return Promise.resolve({
      ok: true,
      output: hits.join("\n") + footer,
      truncated: rest > 0,
      meta: { matches: total },
    });
  },
});

function* walkFiles(
  abs: string,
  prefix: string,
  glob: RegExp | null,
): Generator<readonly [string, string]> {
  for (const entry of walk(abs, prefix)) {
    if (entry.kind !== "file" || (glob && !glob.test(entry.path))) continue;
    yield [
      entry.path,
      `${abs}/${prefix ? entry.path.slice(prefix.length + 1) : entry.path}`,
    ] as const;
  }
}

/** Append up to `room` hits of one file to `hits`; return how many matching lines it has. */
function searchFile(abs: string, rel: string, regex: RegExp, hits: string[], room: number): number {
  const text = readText(abs);
  if (text === null) return 0;
  // An empty match after the final newline (or in an empty file) is on no line: ripgrep skips it.
  const exec = (): RegExpExecArray | null => {
    const found = regex.exec(text);
    return found && found.index === text.length && (text === "" || text.endsWith("\n"))
      ? null
      : found;
  };
  regex.lastIndex = 0;
  let match = exec();
  if (match === null) return 0;
  let count = 0;
  let line = 1;
  let scanned = 0;
  let lastLine = 0;
  while (match !== null) {
    for (
      let i = text.indexOf("\n", scanned);
      i !== -1 && i < match.index;
      i = text.indexOf("\n", i + 1)
    ) {
      line++;
      scanned = i + 1;
    }
    if (line !== lastLine) {
      lastLine = line;
      count++;
      if (room-- > 0) {
        const end = text.indexOf("\n", match.index);
        let content = text.slice(scanned, end === -1 ? text.length : end).replace(/\r$/, "");
        if (content.length > MAX_LINE_CHARS) content = `${content.slice(0, MAX_LINE_CHARS)} [...]`;
        hits.push(`${rel}:${line}:${content}`);
      }
    }
    // Continue from the next line: one hit per line, like ripgrep.
    const next = text.indexOf("\n", match.index);
    if (next === -1) break;
    regex.lastIndex = next + 1;
    match = exec();
  }
  return count;
}

/**
 * A file's text (lossy UTF-8, BOM dropped), or null when a NUL byte in its first
 * {@linkcode BINARY_SNIFF_BYTES} marks it binary. Decoding in the runtime is faster than reading
 * bytes and decoding here. Every character stands for at least one byte, so a NUL byte in the
 * first N bytes is a NUL character in the first N characters; the exact byte check runs only for
 * the rare file that has one there.
 */
function readText(abs: string): string | null {
  const text = Deno.readTextFileSync(abs);
  const nul = text.indexOf("\0");
  if (
    nul !== -1 && nul < BINARY_SNIFF_BYTES &&
    readFileSync(abs).subarray(0, BINARY_SNIFF_BYTES).includes(0)
  ) {
    return null;
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
