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
    assert.deepEqual([...walk(dir, "", 1)].map((e) => e.path), ["a", "b.py", "link"]);
    assert.deepEqual([...walk(`${dir}/a`, "a", 1)].map((e) => e.path), ["a/m", "a/z.py"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
