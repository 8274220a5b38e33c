/**
 * Red-team round 8 against the sandbox: what a run's own code can leave behind that changes how
 * the next runs start (or whether they start at all). Each test asserts the safe behaviour, so it
 * fails while the hole is open.
 */
import assert from "node:assert/strict";
import { PatchgymError } from "../../src/errors.ts";
import { Episode } from "../../src/agent/episode.ts";
import { finish } from "../../src/agent/finish.ts";
import { Sandbox } from "../../src/sandbox/sandbox.ts";
import { toolContext } from "../../src/tools/types.ts";
import { runPython, withContext, withSetup } from "../_fixtures.ts";

for (const launcher of ["compiled", "sh"] as const) {
  Deno.test(`a command that opens up its workspace folder's mode does not keep the next command from starting (${launcher} launcher)`, async () => {
    await withContext({ "calc.py": "def add(a, b):\n    return a + b\n" }, async (base) => {
      if (!base.sandbox.isolation.users || base.sandbox.isolation.level !== "bwrap") {
        console.warn("skipped: needs root with bwrap (the launcher's chown step)");
        return;
      }
      const ctx = launcher === "compiled" ? base : {
        ...base,
        sandbox: new Sandbox({
          isolation: { ...base.sandbox.isolation, launcher: null, launcherReason: "test" },
        }),
      };
      // The sandbox uid owns its workspace folder, so it may change its mode: sticky (or group- or
      // world-writable) reads to the launcher's chown step as a shared folder, which it refuses.
      const first = await runPython(ctx, "import os; os.chmod('.', 0o1700); print('done')");
      assert.ok(first.ok, JSON.stringify(first));
      // The next command must run (or fail as the agent's own failure), never throw a PatchgymError:
      // a thrown one ends the episode as environment_error, left out of rewards and the hack rate,
      // so a policy that cannot solve the task could turn its sure 0 into no sample at all.
      let thrown: unknown = null;
      try {
        const second = await runPython(ctx, "print('still here')");
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
}

Deno.test("a command that closes its workspace folder leaves the final diff readable", async () => {
  await withSetup({ "calc.py": "def add(a, b):\n    return a - b\n" }, async (setup) => {
    const ctx = toolContext(setup.task, setup);
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
      closed = await runPython(
        ctx,
        "import os; open('calc.py', 'a').write('# x\\n'); os.chmod('.', 0o1000)",
      );
      // What finish() does first: a diff it cannot read ends the episode without a grade
      // ("Reading the final diff failed"), no reward instead of its 0.
      const episode = new Episode(setup);
      episode.stop("submitted");
      let graded: string | null = null;
      const { record } = await finish(episode, setup.workspace, {
        isolation: setup.sandbox.isolation,
        limits: { maxDiffBytes: 1024 * 1024 },
        grade: (_task, patch) => {
          graded = patch;
          return Promise.reject(new Error("not graded here"));
        },
      }, {
        identity: { run_id: "r", episode_id: "e", task_id: "fake", sample: 0, group_id: "g" },
        policy: { name: "test", model: null, sampling: {} },
        startedAt: new Date(),
      });
      assert.doesNotMatch(record.error?.message ?? "", /Reading the final diff failed/);
      assert.match(graded ?? "", /# x/);
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
