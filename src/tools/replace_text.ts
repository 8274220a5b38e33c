/** `replace_text`: replace exactly one occurrence of a text in a file. */
import { z } from "zod";
import { readTextFile } from "./_read.ts";
import { defineTool, fail, limitsOf, touchesProtected, writeBoundsProblem } from "./types.ts";

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
  async run(input, ctx) {
    const bounds = writeBoundsProblem(
      input.path,
      new TextEncoder().encode(input.new).length,
      limitsOf(ctx),
    );
    if (bounds) return bounds;
    const target = ctx.workspace.resolve(input.path);
    if (!target.ok) return (fail(target.code, target.message));
    if (target.isDir) {
      return (fail("is_directory", `Path "${target.rel}" is a folder; name a file`));
    }
    if (touchesProtected(ctx, target)) {
      return (fail(
        "protected_path",
        `Cannot edit "${target.rel}": it is a protected path of this task; change the code under test instead`,
      ));
    }
    const read = await readTextFile(ctx, target, "edited");
    if (!read.ok) return read;
    const { text } = read;
    const first = text.indexOf(input.old);
    if (first === -1) {
      return (fail(
        "no_match",
        `Text not found in "${target.rel}"; read the file and copy the exact lines, including indentation`,
      ));
    }
    const second = text.indexOf(input.old, first + 1);
    if (second !== -1) {
      const lines: number[] = [];
      for (let at = first; at !== -1 && lines.length < 10; at = text.indexOf(input.old, at + 1)) {
        lines.push(text.slice(0, at).split("\n").length);
      }
      return (fail(
        "ambiguous_match",
        `Text occurs more than once in "${target.rel}" (lines ${
          lines.join(", ")
        }); include more surrounding lines so it is unique`,
      ));
    }
    await Deno.writeTextFile(
      target.abs,
      text.slice(0, first) + input.new + text.slice(first + input.old.length),
    );
    const line = text.slice(0, first).split("\n").length;
    return ({
      ok: true,
      output: `Replaced 1 occurrence in ${target.rel} at line ${line}`,
    });
  },
});
