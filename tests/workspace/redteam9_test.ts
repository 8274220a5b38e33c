/**
 * Red-team round 9 against the final diff of trees an episode's code leaves: names must come back
 * from the patch text exactly as they are on disk, or grading scores another change than the one
 * the workspace holds.
 */
import assert from "node:assert/strict";
import { applyFilePatches } from "../../src/patch/apply.ts";
import { diffTree } from "../../src/patch/diff.ts";
import { parsePatch } from "../../src/patch/parse.ts";
import { snapshotDir, writeSnapshot } from "../../src/workspace/snapshot.ts";
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

Deno.test("a final diff whose context holds a '*** Begin Patch' line is read as the diff it is", async () => {
  // parsePatch took any line that trims to "*** Begin Patch" for the start of a Codex envelope; a
  // context line of the diff (" *** Begin Patch", from a repository that documents or tests that
  // format) made it read the whole final diff as an envelope with no sections: not parsed, so a
  // correct change near that line was graded as no change at all.
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  try {
    const doc = 'X = 1\nHELP = """\n*** Begin Patch\n*** End Patch\n"""\n';
    writeFiles(dir, { "fmt.py": doc });
    const original = snapshotDir(dir);
    writeFiles(dir, { "fmt.py": doc.replace("X = 1", "X = 2") });
    const diff = await diffTree(original, dir);
    assert.match(diff.patch, /^ \*\*\* Begin Patch$/m);
    const parsed = parsePatch(diff.patch);
    assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
    assert.deepEqual(parsed.files.map((f) => [f.from, f.to, f.hunks.length]), [[
      "fmt.py",
      "fmt.py",
      1,
    ]]);
  } finally {
    await new Deno.Command("rm", { args: ["-rf", dir] }).output();
  }
});

Deno.test("a byte-order mark added to a file does not keep the rest of the final diff from grading", async () => {
  // Texts are compared without their BOM, so a file that only gained (or lost) one got a section
  // with a header and no hunk, which parsePatch refuses: the whole final diff was not applied, and
  // the change in b.py beside it was graded as no change (reward 0).
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  try {
    writeFiles(dir, { "a.py": "x = 1\n", "b.py": "y = 1\n", "c.py": "\uFEFFz = 1\n" });
    const original = snapshotDir(dir);
    writeFiles(dir, { "a.py": "\uFEFFx = 1\n", "b.py": "y = 2\n", "c.py": "z = 1\n" });
    const diff = await diffTree(original, dir);
    const parsed = parsePatch(diff.patch);
    assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
    assert.deepEqual(parsed.files.map((f) => f.to), ["b.py"]);
  } finally {
    await new Deno.Command("rm", { args: ["-rf", dir] }).output();
  }
});

Deno.test("a file named .git does not keep the rest of the final diff from grading", async () => {
  // Folders named .git are left out of the final diff, files were not: a "sub/.git" file (what a
  // submodule or worktree holds) went into it, and the grader's guard refuses any path through
  // version-control data, so the whole diff was not applied and the change beside it scored 0.
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  const copy = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  try {
    writeFiles(dir, { "a/b.py": "x = 1\n" });
    const original = snapshotDir(dir);
    writeFiles(dir, { "a/b.py": "x = 2\n", "sub/.git": "gitdir: ../.git/modules/sub\n" });
    const diff = await diffTree(original, dir);
    const parsed = parsePatch(diff.patch);
    assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
    writeSnapshot(original, copy);
    const applied = await applyFilePatches(copy, parsed.files, {});
    assert.ok(applied.ok, applied.ok ? "" : applied.message);
    assert.equal(Deno.readTextFileSync(`${copy}/a/b.py`), "x = 2\n");
  } finally {
    await new Deno.Command("rm", { args: ["-rf", dir, copy] }).output();
  }
});

Deno.test("a task repository holding a .git file (a submodule) does not make every final diff refused", async () => {
  // The second reading of round 9's fix: the final diff left out files named like noise folders
  // but the snapshot kept them, so a repository with a submodule's "sub/.git" file saw it deleted
  // in every final diff, which the grader's guard refuses whole: every episode of the task scored 0.
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  const copy = await Deno.makeTempDir({ prefix: "patchgym-rt9-" });
  try {
    writeFiles(dir, { "a.py": "x = 1\n", "sub/.git": "gitdir: ../.git/modules/sub\n" });
    const original = snapshotDir(dir);
    writeFiles(dir, { "a.py": "x = 2\n" });
    const diff = await diffTree(original, dir);
    assert.deepEqual([diff.created, diff.modified, diff.deleted], [[], ["a.py"], []]);
    const parsed = parsePatch(diff.patch);
    assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
    writeSnapshot(original, copy);
    const applied = await applyFilePatches(copy, parsed.files, {});
    assert.ok(applied.ok, applied.ok ? "" : applied.message);
    assert.equal(Deno.readTextFileSync(`${copy}/a.py`), "x = 2\n");
  } finally {
    await new Deno.Command("rm", { args: ["-rf", dir, copy] }).output();
  }
});
