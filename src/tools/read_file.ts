/** `read_file`: numbered lines of a text file, capped in lines and bytes. */
import { z } from "zod";
import { readTextFile } from "./_read.ts";
import { defineTool, fail } from "./types.ts";

const MAX_BYTES = 48 * 1024;
const MAX_LINE_CHARS = 1000;

/** Read part of a file with line numbers. */
export const readFileTool = defineTool({
  name: "read_file",
  description:
    "Read a text file with line numbers ('  12| text'). Reads up to max_lines lines from start_line; the footer says how to read on. Binary files are refused.",
  input: z.strictObject({
    path: z.string().describe("File path relative to the workspace root, e.g. 'src/app.py'"),
    start_line: z.number().int().min(1).default(1).describe(
      "First line to show, 1-based (default 1)",
    ),
    max_lines: z.number().int().min(1).max(2000).default(400).describe(
      "How many lines to show (default 400, at most 2000)",
    ),
  }),
  async run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return (fail(target.code, target.message));
    if (target.isDir) {
      return (fail(
        "is_directory",
        `Path "${target.rel}" is a folder; use list_files or inspect_tree to see inside it`,
      ));
    }
    const read = await readTextFile(ctx, target, "read");
    if (!read.ok) return read;
    const { text } = read;
    const lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const total = text === "" ? 0 : lines.length;
    if (total === 0) return ({ ok: true, output: `[${target.rel} is empty]` });
    if (input.start_line > total) {
      return (fail(
        "invalid_input",
        `Cannot read "${target.rel}" from line ${input.start_line}: the file has ${total} lines`,
      ));
    }
    const width = String(Math.min(total, input.start_line + input.max_lines - 1)).length;
    const out: string[] = [];
    let bytes = 0;
    let line = input.start_line;
    for (; line <= total && line < input.start_line + input.max_lines; line++) {
      let content = lines[line - 1];
      if (content.length > MAX_LINE_CHARS) {
        content = `${
          content.slice(0, MAX_LINE_CHARS)
        } [... line cut at ${MAX_LINE_CHARS} characters]`;
      }
      const numbered = `${String(line).padStart(width)}| ${content}`;
      bytes += numbered.length + 1;
      if (bytes > MAX_BYTES && out.length > 0) break;
      out.push(numbered);
    }
    const last = line - 1;
    const truncated = last < total;
    if (truncated) {
      out.push(
        `[lines ${input.start_line}-${last} of ${total}; continue with start_line=${last + 1}]`,
      );
    }
    return ({ ok: true, output: out.join("\n"), truncated });
  },
});
