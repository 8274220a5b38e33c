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

Deno.test("walk() lists no folder twice when non-UTF-8 names read back as a real U+FFFD name beside them", async () => {
  // Deno gives b"a\xff" back as "a\uFFFD", the name of the real folder beside it: following it
  // lists that folder again, and a chain of such pairs doubles the walk at every level (2^depth
  // listings: at 40 levels a search or a listing never ends).
  const LEVELS = 12;
  const dir = await Deno.makeTempDir({ prefix: "patchgym-walk-" });
  const original = Deno.readDirSync;
  const listed = new Map<string, number>();
  try {
    const made = await new Deno.Command("python3", {
      args: [
        "-c",
        `import os\nfor i in range(${LEVELS}):\n    os.mkdir(b"a\\xff"); os.mkdir("a\\ufffd".encode()); os.chdir("a\\ufffd".encode())`,
      ],
      cwd: dir,
    }).output();
    assert.ok(made.success, new TextDecoder().decode(made.stderr));
    writeFiles(dir, { "ok.py": "" });
    (Deno as unknown as { readDirSync: typeof Deno.readDirSync }).readDirSync = (path) => {
      const p = String(path);
      listed.set(p, (listed.get(p) ?? 0) + 1);
      return original(path);
    };
    const entries = [...walk(dir)];
    const most = Math.max(...listed.values());
    assert.equal(most, 1, `a folder was listed ${most} times (${listed.size} folders)`);
    // A name that cannot be given back is left out, as the final diff leaves it out.
    assert.deepEqual(entries.map((e) => e.path), ["ok.py"]);
  } finally {
    (Deno as unknown as { readDirSync: typeof Deno.readDirSync }).readDirSync = original;
    await new Deno.Command("rm", { args: ["-rf", dir] }).output();
  }
});
