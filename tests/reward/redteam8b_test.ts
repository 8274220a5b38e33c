/**
 * Red-team round 8b against grading: what a patch's code under test can leave in the scoring copy
 * so that its removal fails, which makes the whole grade throw ("Grading failed", no reward)
 * instead of the 0 the patch earns, and leaves the copy on disk. As root the copy is a tmpfs that
 * is unmounted whole; without one (not root, or no workspace mounts) the copy is walked and
 * removed. Each test asserts the safe behaviour, so it fails while the hole is open.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Environment } from "../../src/agent/environment.ts";
import { patchOf, UNITTEST_TASK, withEnv } from "./_grading.ts";

/** Grade a patch whose stats/__init__.py starts with `prelude` (run when the tests import it). */
async function gradeWithPrelude(env: Environment, prelude: string) {
  const task = env.task(UNITTEST_TASK);
  const patch = await patchOf(env, task, (dir) => {
    const path = join(dir, "stats/__init__.py");
    Deno.writeTextFileSync(path, prelude + Deno.readTextFileSync(path));
  });
  let grade = null;
  let thrown: unknown = null;
  let left: string[] = [];
  try {
    grade = await env.grade(task, patch);
  } catch (error) {
    thrown = error;
  } finally {
    left = [...Deno.readDirSync(env.workRoot)].map((e) => e.name);
    // Only so that withEnv can remove what the grader left (GNU chmod walks any depth).
    await new Deno.Command("chmod", { args: ["-R", "u+rwx", env.workRoot], stderr: "null" })
      .output();
  }
  return { grade, thrown, left };
}

Deno.test("a non-UTF-8 folder 257 levels deep in the scoring copy does not make the grade throw", async () => {
  await withEnv(async (env) => {
    if (env.isolation.level !== "bwrap") {
      console.warn("skipped: needs bwrap");
      return;
    }
    // removeTree's flatten() moves every folder deeper than 256 levels up by its name as Deno
    // reads it: a name that is not UTF-8 comes back with U+FFFD, the rename throws NotFound, and
    // gradePatch's `finally { await copy.remove() }` throws out of the grade.
    const { grade, thrown, left } = await gradeWithPrelude(
      env,
      `import os as _os
_home = _os.getcwd()
for _i in range(256):
    _os.mkdir("d"); _os.chdir("d")
_os.mkdir(b"\\xff")
_os.chdir(_home)
`,
    );
    assert.equal(thrown, null, `the grade threw ${String(thrown)}`);
    assert.deepEqual(left, [], "the grader left its scoring copy behind");
    assert.equal(grade!.fail_to_pass.passed, 0);
  });
});

Deno.test("a closed folder past PATH_MAX under a closed folder in the scoring copy does not make the grade throw", async () => {
  await withEnv(async (env) => {
    if (env.isolation.level !== "bwrap") {
      console.warn("skipped: needs bwrap");
      return;
    }
    // Without root the code runs as the grader's own user. The removal meets the closed "top",
    // reopens the tree, but reopenTree cannot name what lies past PATH_MAX, so "c" stays closed;
    // the second try (flatten moves the chain up) then fails on "c" and the grade throws.
    const { grade, thrown, left } = await gradeWithPrelude(
      env,
      `import os as _os
_home = _os.getcwd()
_os.mkdir("top"); _os.chdir("top")
for _i in range(30):
    _os.mkdir("d" * 200); _os.chdir("d" * 200)
_os.mkdir("c"); open("c/f", "w").close(); _os.chmod("c", 0)
_os.chdir(_home); _os.chmod("top", 0)
`,
    );
    assert.equal(thrown, null, `the grade threw ${String(thrown)}`);
    assert.deepEqual(left, [], "the grader left its scoring copy behind");
    assert.equal(grade!.fail_to_pass.passed, 0);
  });
});
