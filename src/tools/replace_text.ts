/** `replace_text`: replace exactly one occurrence of a text in a file. */
import { readFileSync, writeFileSync } from "node:fs";
import { z } from "zod";
import { decodeText } from "../workspace/diff.ts";
import { defineTool, fail, touchesProtected } from "./types.ts";

/** Replace one exact occurrence of `old` with `new` in a file. */
export const replaceTextTool = defineTool({
  name: "replace_text",
  description:
    "Replace exactly one occurrence of `old` with `new` in a file. `old` must match the file byte for byte, including indentation, and occur exactly once; include surrounding lines to make it unique.",
  input: z.strictObject({
    path: z.string().describe("File path relative to the workspace root"),
    old: z.string().min(1).describe("Exact text to replace; must occur exactly once"),
    new: z.string().describe("Replacement text"),
  }),
  run(input, ctx) {
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return Promise.resolve(fail(target.code, target.message));
    if (target.isDir) {
      return Promise.resolve(fail("is_directory", `Path "${target.rel}" is a folder; name a file`));
    }
    if (touchesProtected(ctx.task, target)) {
      return Promise.resolve(
        fail(
          "protected_path",
          `Cannot edit "${target.rel}": it is a protected path of this task; change the code under test instead`,
        ),
      );
    }
    const text = decodeText(readFileSync(target.abs));
    if (text === null) {
      return Promise.resolve(
        fail("binary_file", `File "${target.rel}" is binary; only text files can be edited`),
      );
    }
    const first = text.indexOf(input.old);
    if (first === -1) {
      return Promise.resolve(
        fail(
          "no_match",
          `Text not found in "${target.rel}"; read the file and copy the exact lines, including indentation`,
        ),
      );
    }
    const second = text.indexOf(input.old, first + 1);
    if (second !== -1) {
      const lines: number[] = [];
      for (let at = first; at !== -1 && lines.length < 10; at = text.indexOf(input.old, at + 1)) {
        lines.push(text.slice(0, at).split("\n").length);
      }
      return Promise.resolve(fail(
        "ambiguous_match",
        `Text occurs more than once in "${target.rel}" (lines ${
          lines.join(", ")
        }); include more surrounding lines so it is unique`,
      ));
    }
    writeFileSync(
      target.abs,
      text.slice(0, first) + input.new + text.slice(first + input.old.length),
    );
    const line = text.slice(0, first).split("\n").length;
    return Promise.resolve({
      ok: true,
      output: `Replaced 1 occurrence in ${target.rel} at line ${line}`,
    });
  },
});
