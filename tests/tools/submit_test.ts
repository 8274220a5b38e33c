import assert from "node:assert/strict";
import { executeTool } from "../../src/tools/registry.ts";
import { submitTool } from "../../src/tools/submit.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

Deno.test("submitTool.run() records a solved submission in meta", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    const result = await call(submitTool, {
      status: "solved",
      summary: "Fixed the off-by-one in add()",
    }, ctx);
    assert.equal(okOutput(result), "Submitted as solved");
    assert.deepEqual(result.ok && result.meta, {
      status: "solved",
      summary: "Fixed the off-by-one in add()",
    });
  });
});

Deno.test("submitTool.run() records a blocked submission in meta", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    const result = await executeTool("submit", '{"status": "blocked", "summary": ""}', ctx);
    assert.equal(okOutput(result), "Submitted as blocked");
    assert.deepEqual(result.ok && result.meta, { status: "blocked", summary: "" });
  });
});

Deno.test("executeTool() refuses a submit with an unknown status with invalid_input", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    const message = failMessage(
      await executeTool("submit", { status: "done", summary: "x" }, ctx),
      "invalid_input",
    );
    assert.match(message, /^Invalid arguments for "submit": status: /);
    assert.match(message, /"solved"/);
  });
});

Deno.test("executeTool() refuses a submit without a summary or with a too long one", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    const missing = failMessage(
      await executeTool("submit", { status: "solved" }, ctx),
      "invalid_input",
    );
    assert.match(missing, /summary: required/);
    failMessage(
      await executeTool("submit", { status: "solved", summary: "x".repeat(4001) }, ctx),
      "invalid_input",
    );
    okOutput(await executeTool("submit", { status: "solved", summary: "x".repeat(4000) }, ctx));
  });
});

Deno.test("submitTool.run() refuses a solved submission whose diff is over the cap, naming the files", async () => {
  await withContext({ "a.txt": "hello\n" }, async (ctx) => {
    const limited = { ...ctx, limits: { maxDiffBytes: 1000 } };
    Deno.writeTextFileSync(`${ctx.workspace.dir}/big.txt`, "y\n".repeat(1000));
    const message = failMessage(
      await call(submitTool, { status: "solved", summary: "done" }, limited),
      "diff_too_large",
    );
    assert.equal(
      message,
      'Cannot submit: The changes hold 2.0 KiB, over the 1000 B limit of a final diff; biggest changed files: "big.txt" (2.0 KiB); delete or shrink what the change does not need, then submit again',
    );
    // Giving up is still possible, and a small diff submits.
    okOutput(await call(submitTool, { status: "blocked", summary: "stuck" }, limited));
    Deno.removeSync(`${ctx.workspace.dir}/big.txt`);
    okOutput(await call(submitTool, { status: "solved", summary: "done" }, limited));
  });
});
