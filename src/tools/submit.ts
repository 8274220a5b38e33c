/** `submit`: end the episode, saying whether the task is solved. */
import { diffTree } from "../patch/diff.ts";
import { z } from "zod";
import { diffTooLargeMessage } from "../workspace/limits.ts";
import { defineTool, fail, limitsOf } from "./types.ts";

/** Finish the task. */
export const submitTool = defineTool({
  name: "submit",
  description:
    "Finish the task. Call it once, when the change is complete and the tests pass (status 'solved'), or when you cannot make progress (status 'blocked'). The workspace as it is then gets graded by hidden tests.",
  input: z.strictObject({
    status: z.enum(["solved", "blocked"]).describe(
      "'solved' if the task is done, 'blocked' if you cannot finish it",
    ),
    summary: z.string().max(4000).describe("A short summary of what you changed and why"),
  }),
  async run(input, ctx) {
    // The final diff is graded only under its cap: say so while the model can still fix it.
    const diff = input.status === "solved"
      ? await diffTree(ctx.workspace.original, ctx.workspace.dir, {
        maxBytes: limitsOf(ctx).maxDiffBytes,
      })
      : null;
    if (diff?.tooLarge) {
      return fail(
        "diff_too_large",
        `Cannot submit: ${diffTooLargeMessage(diff.tooLarge)}, then submit again`,
      );
    }
    return {
      ok: true,
      output: `Submitted as ${input.status}`,
      meta: { status: input.status, summary: input.summary },
    };
  },
});
