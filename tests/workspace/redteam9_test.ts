/**
 * Red-team round 9 against the final diff of trees an episode's code leaves: names must come back
 * from the patch text exactly as they are on disk, or grading scores another change than the one
 * the workspace holds.
 */
import assert from "node:assert/strict";
import { diffTree } from "../../src/patch/diff.ts";
import { parsePatch } from "../../src/patch/parse.ts";
import { snapshotDir } from "../../src/workspace/snapshot.ts";
import { writeFiles } from "../_fixtures.ts";

Deno.test("a file whose name ends in white space keeps its name through the final diff", async () => {
  // `+++ b/x \t` (git's tab after a name with a space) was read back with trimEnd(): "helper.py "
  // was graded as "helper.py", and "util.py" + U+00A0 as "util.py", a module the workspace's own
  // runs could never import.
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  try {
    writeFiles(dir, { "a.py": "x = 1\n" });
    const original = snapshotDir(dir);
    const names = ["helper.py ", "util.py\u00a0", "tab.py\t", "a b.py  "];
    writeFiles(dir, Object.fromEntries(names.map((name) => [name, "y = 2\n"])));
    const diff = await diffTree(original, dir);
    assert.deepEqual([...diff.created].sort(), [...names].sort());
    const parsed = parsePatch(diff.patch);
    assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
    assert.deepEqual(parsed.files.map((f) => f.to).sort(), [...names].sort());
  } finally {
    await new Deno.Command("rm", { args: ["-rf", dir] }).output();
  }
});
