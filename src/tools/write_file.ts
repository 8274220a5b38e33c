/** `write_file`: create or overwrite a whole text file. */
import { dirname } from "node:path";
import { z } from "zod";
import { defineTool, fail, limitsOf, touchesProtected, writeBoundsProblem } from "./types.ts";

/** Create or overwrite one file with the given content. */
export const writeFileTool = defineTool({
  name: "write_file",
  description:
    "Create a file, or overwrite one, with the full content given. Missing parent folders are created. For small edits to an existing file prefer replace_text or apply_patch.",
  input: z.strictObject({
    path: z.string().describe("File path relative to the workspace root"),
    content: z.string().describe("The complete new content of the file"),
  }),
  async run(input, ctx) {
    const bytes = new TextEncoder().encode(input.content);
    const bounds = writeBoundsProblem(input.path, bytes.length, limitsOf(ctx));
    if (bounds) return bounds;
    const target = ctx.workspace.resolve(input.path, { allowMissing: true });
    if (!target.ok) return Promise.resolve(fail(target.code, target.message));
    if (target.isDir) {
      return Promise.resolve(
        fail("is_directory", `Path "${target.rel}" is a folder; name a file inside it`),
      );
    }
    if (touchesProtected(ctx, target)) {
      return Promise.resolve(
        fail(
          "protected_path",
          `Cannot write "${target.rel}": it is a protected path of this task; change the code under test instead`,
        ),
      );
    }
    await Deno.mkdir(dirname(target.abs), { recursive: true });
    await Deno.writeFile(target.abs, bytes);
    const lines = input.content === ""
      ? 0
      : input.content.split("\n").length - (input.content.endsWith("\n") ? 1 : 0);
    return Promise.resolve({
      ok: true,
      output: `${target.exists ? "Overwrote" : "Created"} ${target.rel} (${lines} lines)`,
    });
  },
});
