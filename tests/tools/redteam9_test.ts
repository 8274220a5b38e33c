/**
 * Red-team round 9 against the agent's read and inspect tools facing trees the episode's own code
 * made in the jail (through `run_command`) and the arguments the model sends with them. Each test
 * asserts the safe behaviour, so it fails while the hole is open. What is measured is the harm
 * itself where nothing can be counted: how long the orchestrator's thread went without a turn.
 */
import assert from "node:assert/strict";
import { executeTool } from "../../src/tools/registry.ts";
import { toolContext } from "../../src/tools/types.ts";
import { withSetup } from "../_fixtures.ts";

/** GNU rm walks any depth and names by bytes. */
async function rmrf(path: string) {
  await new Deno.Command("rm", { args: ["-rf", path], stderr: "null" }).output();
}

/**
 * The longest the orchestrator's thread went without a turn of its event loop while `work` ran
 * (other episodes' tool calls and model requests wait that long).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    last = performance.now();
    const value = await work();
    stallMs = Math.max(stallMs, performance.now() - last);
    return { value, stallMs };
  } finally {
    clearInterval(tick);
  }
}

Deno.test("a list_files glob that backtracks does not hold the orchestrator's thread", async () => {
  // globToRegExp("*a*a*a*a*b") is /(?:^|\/)[^/]*a[^/]*a[^/]*a[^/]*a[^/]*b$/: on a name of n "a"s
  // with no "b", V8's backtracking engine tries about n^5/4! ways (14 s for n = 200 here; one
  // more "*a" and it is hours). list_files tested each path on the orchestrator's own thread,
  // with no deadline: every episode of the process stood still meanwhile.
  await withSetup({ "a.txt": "x\n" }, async (setup) => {
    const dir = setup.workspace.dir;
    const ctx = toolContext(setup.task, setup);
    try {
      const made = await executeTool("run_command", {
        argv: ["python3", "-c", `open("a" * 200, "w").close(); print("made")`],
      }, ctx);
      assert.ok(made.ok, JSON.stringify(made));
      const { value: listed, stallMs } = await longestStall(() =>
        executeTool("list_files", { glob: "*a*a*a*a*b" }, ctx)
      );
      assert.ok(stallMs < 1000, `list_files held the thread for ${stallMs.toFixed(0)} ms`);
      assert.ok(listed.ok || listed.code === "timeout", JSON.stringify(listed));
    } finally {
      await rmrf(dir);
    }
  });
});
