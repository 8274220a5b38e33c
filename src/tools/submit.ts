/** `submit`: end the episode, saying whether the task is solved. */
import { z } from "zod";
import { defineTool } from "./types.ts";

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
  run(input) {
    return Promise.resolve({
      ok: true,
      output: `Submitted as ${input.status}`,
      meta: { status: input.status, summary: input.summary },
    });
  },
});
