/**
 * Red-team round 8 against grading: what one episode's test run can do to how another episode's
 * patch is graded. Each test asserts the safe behaviour, so it fails while the hole is open.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { EnvironmentFault } from "../../src/errors.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { writeSnapshot } from "../../src/workspace/snapshot.ts";
import { patchOf, UNITTEST_TASK, withEnv } from "./_grading.ts";

/** Give every folder under `dir` its owner's permissions back (code under test took them away). */
function reopen(dir: string): void {
  Deno.chmodSync(dir, 0o700);
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) reopen(join(dir, entry.name));
  }
}

function edit(path: string, change: (text: string) => string): void {
  Deno.writeTextFileSync(path, change(Deno.readTextFileSync(path)));
}

Deno.test("one episode's test run cannot make another episode's grade an environment error", async () => {
  await withEnv(async (env) => {
    if (env.isolation.level !== "bwrap") {
      console.warn("skipped: needs bwrap");
      return;
    }
    const task = env.task(UNITTEST_TASK);
    // Episode A (the attacker): its workspace, where its code under test, run by run_tests, makes
    // the workspace folder sticky without permissions and exits before the reporter signs
    // anything. With no signed report, runTests checks once per sandbox whether the runner is
    // there, in that same folder: as root the check cannot start (the launcher's chown step
    // refuses a sticky "shared folder"), as another user bwrap cannot enter the folder; and the
    // answer, "python3 ... cannot start / is not available in the sandbox on this machine", is
    // kept for the sandbox, shared by every episode (and the grader) of the thread.
    const attacker = join(env.workRoot, "episode-a");
    mkdirSync(attacker, { mode: 0o700 });
    writeSnapshot(env.snapshot(task), attacker);
    edit(
      join(attacker, "stats/__init__.py"),
      (text) => `import os\nos.chmod(os.getcwd(), 0o1000)\nos._exit(1)\n${text}`,
    );
    let own: unknown = null;
    try {
      await runTests(env.sandbox, {
        runner: "unittest",
        dir: attacker,
        files: task.spec.visible_tests,
        timeoutMs: 20_000,
      });
    } catch (error) {
      own = error;
    } finally {
      // So that withEnv can remove it as another user.
      Deno.chmodSync(attacker, 0o700);
    }
    // Episode B (another policy): a patch whose hidden tests die before any report, graded on the
    // same sandbox afterwards. It earns 0 with its tests missing, as when graded alone (see
    // grade_test.ts, "an early exit ... as missing tests"), never an environment error.
    const patch = await patchOf(env, task, (dir) => {
      edit(join(dir, "stats/__init__.py"), (text) => `${text}\nimport os\nos._exit(0)\n`);
    });
    let grade = null;
    let thrown: unknown = null;
    try {
      grade = await env.grade(task, patch);
    } catch (error) {
      thrown = error;
    }
    assert.ok(
      !(thrown instanceof EnvironmentFault),
      `episode B's grade threw ${String(thrown)} (episode A's own run threw ${String(own)})`,
    );
    if (thrown) throw thrown;
    assert.equal(grade!.run.report_found, false);
    // Nor does A itself escape its 0 as an environment error.
    assert.ok(!(own instanceof EnvironmentFault), `episode A's own run threw ${String(own)}`);
  });
});

Deno.test("a patch whose code under test closes up the scoring copy's folder earns 0, not an environment error", async () => {
  await withEnv(async (env) => {
    if (env.isolation.level !== "bwrap") {
      console.warn("skipped: needs bwrap");
      return;
    }
    const task = env.task(UNITTEST_TASK);
    // Only the submitted patch: graded first on this sandbox (a fresh `serve` or `worker`, or a
    // rollout pool's thread, whose Environment has run no runner check yet), its hidden-test run
    // leaves no signed report, and the runner check then made in the scoring copy fails: as root
    // the launcher's chown step refuses a sticky folder ("a shared folder"), as another user
    // bwrap cannot enter a folder without permissions ("Can't chdir"). Either way the answer,
    // "python3 ... is not available / cannot start in the sandbox on this machine", is kept.
    const patch = await patchOf(env, task, (dir) => {
      edit(
        join(dir, "stats/__init__.py"),
        (text) => `import os\nos.chmod(os.getcwd(), 0o1000)\nos._exit(1)\n${text}`,
      );
    });
    let grade = null;
    let thrown: unknown = null;
    let left: string[] = [];
    try {
      grade = await env.grade(task, patch);
    } catch (error) {
      thrown = error;
    } finally {
      // The scoring copy must be gone; as another user the grader could not remove it.
      left = [...Deno.readDirSync(env.workRoot)].map((e) => e.name);
      reopen(env.workRoot);
    }
    assert.deepEqual(left, [], "the grader left its scoring copy behind");
    // finish() turns an EnvironmentFault into stopReason "environment_error" (no reward, no hack),
    // and any other error into "Grading failed" with no reward: neither is the 0 this patch earns.
    assert.equal(thrown, null, `the grade threw ${String(thrown)}`);
    assert.equal(grade!.run.report_found, false);
  });
});
