/**
 * Red-team round 8c against grading: the scoring copy's removal (without root, or without
 * workspace mounts, the copy is walked and removed) flattens long chains by the names Deno gives
 * back, so a folder whose name is not UTF-8 hides a chain of any depth from it, and the recursive
 * removal recurses down that chain on a thread's fixed stack: the grader's whole process aborts
 * (every episode in it), which `copy.remove().catch(() => {})` cannot catch. The test asserts the
 * safe behaviour, so it fails while the hole is open; the grade runs in a child process, so that
 * the abort fails the test instead of the test runner.
 */
import assert from "node:assert/strict";

const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);

/** The code under test, run when the tests import stats/__init__.py. */
const PRELUDE = `import os as _os
_home = _os.getcwd()
_os.mkdir(b"\\xff"); _os.chdir(b"\\xff")
for _i in range(20000):
    _os.mkdir("d"); _os.chdir("d")
_os.chdir(_home)
`;

Deno.test("a deep chain under a non-UTF-8 folder in the scoring copy does not abort the grader", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-grade-test-" });
  try {
    const code = `
import { join } from "node:path";
import { Environment } from ${url("../../src/agent/environment.ts")};
import { patchOf, TASKS_DIR, UNITTEST_TASK } from ${url("./_grading.ts")};
const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: ${JSON.stringify(root)} });
if (env.isolation.level !== "bwrap") {
  console.log(JSON.stringify({ skipped: env.isolation.level }));
  Deno.exit(0);
}
const task = env.task(UNITTEST_TASK);
const patch = await patchOf(env, task, (dir) => {
  const path = join(dir, "stats/__init__.py");
  Deno.writeTextFileSync(path, ${JSON.stringify(PRELUDE)} + Deno.readTextFileSync(path));
});
const grade = await env.grade(task, patch);
console.log(JSON.stringify({ passed: grade.fail_to_pass.passed }));
Deno.exit(0);
`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--ext=ts", code],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout).trim();
    if (out.success && /skipped/.test(stdout)) {
      console.warn(`skipped: needs bwrap (${stdout})`);
      return;
    }
    assert.ok(
      out.success,
      `the grader's process ended (exit ${out.code}): ${
        new TextDecoder().decode(out.stderr).slice(-300)
      }`,
    );
    assert.equal(JSON.parse(stdout.split("\n").pop()!).passed, 0);
    const left = [...Deno.readDirSync(root)].map((e) => e.name);
    assert.deepEqual(left, [], "the grader left its scoring copy behind");
  } finally {
    // GNU chmod and rm walk any depth.
    await new Deno.Command("chmod", { args: ["-R", "u+rwx", root], stderr: "null" }).output();
    await new Deno.Command("rm", { args: ["-rf", root], stderr: "null" }).output();
  }
});
