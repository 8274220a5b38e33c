import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { walk } from "../../src/workspace/walk.ts";
import { writeFiles } from "../_fixtures.ts";

Deno.test("walk() lists entries depth first in sorted order, skipping noise, not following links", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-walk-" });
  try {
    writeFiles(dir, {
      "b.py": "",
      "a/z.py": "",
      "a/m/deep.py": "",
      "a/m/deep.pyc": "",
      ".git/HEAD": "",
      "__pycache__/x.pyc": "",
    });
    symlinkSync("/etc", `${dir}/link`);
    const entries = [...walk(dir)].map((e) => `${e.depth} ${e.kind} ${e.path}`);
    assert.deepEqual(entries, [
      "1 dir a",
      "2 dir a/m",
      "3 file a/m/deep.py",
      "2 file a/z.py",
      "1 file b.py",
      "1 symlink link",
    ]);
    assert.deepEqual([...walk(dir, "", { maxDepth: 1 })].map((e) => e.path), ["a", "b.py", "link"]);
    assert.deepEqual([...walk(`${dir}/a`, "a", { maxDepth: 1 })].map((e) => e.path), [
      "a/m",
      "a/z.py",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Attack: run_command leaves a million files; a listing on the orchestrator's thread read them all.
Deno.test("walk() stops after reading maxEntries folder entries and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-walk-" });
  try {
    const files: Record<string, string> = { "a/x.py": "" };
    for (let i = 0; i < 50; i++) files[`many/f${String(i).padStart(2, "0")}`] = "";
    writeFiles(dir, files);
    const entries = [...walk(dir, "", { maxEntries: 10 })];
    // Each folder entry read counts: "a", "many", then "a/x.py", then 7 of "many"'s files.
    assert.equal(entries.filter((e) => e.kind !== "stopped").length, 10);
    assert.deepEqual(entries.at(-1), { path: "", depth: 0, kind: "stopped" });
    assert.equal(entries.filter((e) => e.kind === "stopped").length, 1);
    assert.equal([...walk(dir, "", { maxEntries: 53 })].some((e) => e.kind === "stopped"), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
