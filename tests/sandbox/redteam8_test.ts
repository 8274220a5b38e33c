/**
 * Red-team round 8 against the sandbox: what a run's own code can leave behind that changes how
 * the next runs start (or whether they start at all). Each test asserts the safe behaviour, so it
 * fails while the hole is open.
 */
import assert from "node:assert/strict";
import { PatchgymError } from "../../src/errors.ts";
import { diffTree } from "../../src/patch/diff.ts";
import { executeTool } from "../../src/tools/registry.ts";
import { withContext } from "../_fixtures.ts";

Deno.test("a command that opens up its workspace folder's mode does not keep the next command from starting", async () => {
  await withContext({ "calc.py": "def add(a, b):\n    return a + b\n" }, async (ctx) => {
    if (!ctx.sandbox.isolation.users || ctx.sandbox.isolation.level !== "bwrap") {
      console.warn("skipped: needs root with bwrap (the launcher's chown step)");
      return;
    }
    // The sandbox uid owns its workspace folder, so it may change its mode: sticky (or group- or
    // world-writable) reads to the launcher's chown step as a shared folder, which it refuses.
    const first = await executeTool("run_command", {
      argv: ["python3", "-c", "import os; os.chmod('.', 0o1700); print('done')"],
    }, ctx);
    assert.ok(first.ok, JSON.stringify(first));
    // The next command must run (or fail as the agent's own failure), never throw a PatchgymError:
    // a thrown one ends the episode as environment_error, left out of rewards and the hack rate,
    // so a policy that cannot solve the task could turn its sure 0 into no sample at all.
    let thrown: unknown = null;
    try {
      const second = await executeTool("run_command", {
        argv: ["python3", "-c", "print('still here')"],
      }, ctx);
      assert.ok(second.ok, JSON.stringify(second));
      assert.match(second.ok ? second.output : "", /still here/);
    } catch (error) {
      thrown = error;
    }
    assert.ok(
      !(thrown instanceof PatchgymError),
      `the next command threw ${String(thrown)}: the episode would end as environment_error`,
    );
    if (thrown) throw thrown;
  });
});

Deno.test("a command that closes its workspace folder leaves the final diff readable", async () => {
  await withContext({ "calc.py": "def add(a, b):\n    return a - b\n" }, async (ctx) => {
    if (ctx.sandbox.isolation.level !== "bwrap") {
      console.warn("skipped: needs bwrap");
      return;
    }
    let closed = null;
    let thrown: unknown = null;
    try {
      // The last command of an episode that could not solve its task: fix nothing, close the
      // folder. (As root the chown step then refuses the next run, see above; as another user the
      // orchestrator itself can no longer read or remove the workspace.)
      closed = await executeTool("run_command", {
        argv: [
          "python3",
          "-c",
          "import os; open('calc.py', 'a').write('# x\\n'); os.chmod('.', 0o1000)",
        ],
      }, ctx);
      // What finish() does first: a diff it cannot read ends the episode without a grade
      // ("Reading the final diff failed"), no reward instead of its 0.
      const diff = await diffTree(ctx.workspace.original, ctx.workspace.dir);
      assert.match(diff.patch, /# x/);
    } catch (error) {
      thrown = error;
    } finally {
      // Only so the fixture can remove it; an orchestrator has nothing to do this for it.
      Deno.chmodSync(ctx.workspace.dir, 0o700);
    }
    assert.equal(thrown, null, `after ${JSON.stringify(closed)}: ${String(thrown)}`);
    assert.ok(closed?.ok, JSON.stringify(closed));
  });
});
