/**
 * Red-team round 8e. `runTests` removes its report folder in a `finally` with `removeTree`, whose
 * error is not caught: the code under test may write that folder (it is a writable bind of the
 * jail). Without root the code under test runs as the orchestrator's user; a folder there named
 * in bytes that are not UTF-8 and closed with `chmod 0` is skipped by `reopenTree` (names with
 * U+FFFD are not walked), GNU rm cannot open it, and Deno's recursive removal is denied: the
 * removal throws PermissionDenied, `runTests` throws, and `gradePatch` with it, so the episode
 * ends "Grading failed" with reward null instead of the 0 (or whatever) its change earns.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

/** GNU rm as root or after opening up; the test leaves nothing behind. */
async function cleanup(path: string) {
  await new Deno.Command("chmod", { args: ["-R", "u+rwx", path], stderr: "null" }).output();
  await new Deno.Command("rm", { args: ["-rf", path], stderr: "null" }).output();
}

const CLOSER = `import glob, os
for report in glob.glob(os.path.join(os.path.dirname(os.getcwd()), ".report-*")):
    try:
        bad = os.path.join(report.encode(), b"x\\xff")
        os.mkdir(bad)
        os.mkdir(os.path.join(bad, b"inner"))
        os.chmod(bad, 0)
    except OSError as e:
        print("closer:", e)
def add(a, b):
    return a + b
`;

const TEST = `import unittest
from calc import add
class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)
`;

Deno.test("a closed non-UTF-8 folder the code under test leaves in the report folder does not make runTests throw", async () => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rt8e-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, { "calc.py": CLOSER, "tests/test_calc.py": TEST });
    let error: unknown = null;
    try {
      await runTests(await testSandbox(), {
        runner: "unittest",
        dir,
        files: ["tests/test_calc.py"],
        timeoutMs: 20_000,
      });
    } catch (e) {
      error = e;
    }
    const left = [...Deno.readDirSync(base)].map((e) => e.name);
    assert.equal(error, null, `runTests threw: ${error}; left in the scratch folder: ${left}`);
  } finally {
    await cleanup(base);
  }
});
