import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspectTreeTool } from "../../src/tools/inspect_tree.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

const REPO = {
  "README.md": "",
  "src/app.py": "",
  "src/pkg/mod.py": "",
  "src/pkg/sub/deep.py": "",
  "src/pkg/sub/deeper/deepest.py": "",
  "tests/test_a.py": "",
};

Deno.test("inspectTreeTool.run() shows a sorted tree three levels deep by default", async () => {
  await withContext(REPO, async (ctx) => {
    const result = await call(inspectTreeTool, {}, ctx);
    assert.equal(
      okOutput(result),
      [
        "./",
        "  README.md",
        "  src/",
        "    app.py",
        "    pkg/",
        "      mod.py",
        "      sub/",
        "  tests/",
        "    test_a.py",
      ].join("\n"),
    );
    assert.equal(result.ok && result.truncated, false);
  });
});

Deno.test("inspectTreeTool.run() follows the depth limit", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(inspectTreeTool, { depth: 1 }, ctx)),
      "./\n  README.md\n  src/\n  tests/",
    );
    const deep = okOutput(await call(inspectTreeTool, { depth: 8 }, ctx));
    assert.match(deep, /^ {10}deepest\.py$/m);
  });
});

Deno.test("inspectTreeTool.run() shows one folder with its own name at the top", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(inspectTreeTool, { path: "src/pkg", depth: 2 }, ctx)),
      "src/pkg/\n  mod.py\n  sub/\n    deep.py\n    deeper/",
    );
  });
});

Deno.test("inspectTreeTool.run() skips .git, node_modules and caches and marks symlinks", async () => {
  await withContext(REPO, async (ctx) => {
    for (const folder of [".git/objects", "node_modules/pkg", "src/__pycache__"]) {
      mkdirSync(join(ctx.workspace.dir, folder), { recursive: true });
      writeFileSync(join(ctx.workspace.dir, folder, "x.py"), "");
    }
    writeFileSync(join(ctx.workspace.dir, "src", "app.cpython-311.pyc"), "");
    symlinkSync("src/pkg", join(ctx.workspace.dir, "alias"));
    const output = okOutput(await call(inspectTreeTool, { depth: 2 }, ctx));
    assert.equal(
      output,
      "./\n  README.md\n  alias -> (symlink)\n  src/\n    app.py\n    pkg/\n  tests/\n    test_a.py",
    );
  });
});

Deno.test("inspectTreeTool.run() shows at most 400 entries and counts the rest", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 450; i++) files[`many/f${String(i).padStart(3, "0")}.txt`] = "";
  await withContext(files, async (ctx) => {
    const result = await call(inspectTreeTool, {}, ctx);
    const lines = okOutput(result).split("\n");
    assert.equal(result.ok && result.truncated, true);
    // The root line, 400 entries ("many/" and 399 files), then the note.
    assert.equal(lines.length, 402);
    assert.equal(lines[1], "  many/");
    assert.equal(lines[400], "    f398.txt");
    assert.equal(
      lines[401],
      "[51 more entries not shown; inspect a subfolder or use list_files with a glob]",
    );
  });
});

Deno.test("inspectTreeTool.run() refuses a file with invalid_input", async () => {
  await withContext(REPO, async (ctx) => {
    const message = failMessage(
      await call(inspectTreeTool, { path: "README.md" }, ctx),
      "invalid_input",
    );
    assert.match(message, /use read_file/);
  });
});

Deno.test("inspectTreeTool.run() refuses a missing folder with not_found", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(await call(inspectTreeTool, { path: "nope" }, ctx), "not_found");
  });
});

Deno.test("inspectTreeTool.run() refuses paths outside the workspace", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(await call(inspectTreeTool, { path: "../" }, ctx), "path_outside_workspace");
    failMessage(await call(inspectTreeTool, { path: "/" }, ctx), "path_outside_workspace");
    symlinkSync("/etc", join(ctx.workspace.dir, "etc"));
    failMessage(await call(inspectTreeTool, { path: "etc" }, ctx), "path_outside_workspace");
  });
});

Deno.test("inspectTreeTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext(REPO, async (ctx) => {
    mkdirSync(join(ctx.workspace.dir, ".git"));
    failMessage(await call(inspectTreeTool, { path: ".git" }, ctx), "path_not_allowed");
  });
});

// Attack: one folder with a million files (run_command makes about 130,000 in 20 seconds) was read
// whole and sorted on the orchestrator's thread before the first 400 entries were shown.
Deno.test("inspectTreeTool.run() stops reading a huge tree at its entry limit and says so", async () => {
  await withContext(REPO, async (ctx) => {
    mkdirSync(join(ctx.workspace.dir, "flood"));
    for (let i = 0; i < 30; i++) writeFileSync(join(ctx.workspace.dir, "flood", `f${i}`), "");
    const limited = { ...ctx, limits: { maxListEntries: 20 } };
    const result = await call(inspectTreeTool, {}, limited);
    assert.match(
      okOutput(result),
      /\n\[stopped after reading 20 entries: the tree is too big to list whole; inspect a subfolder\]$/,
    );
    assert.equal(result.ok && result.truncated, true);
  });
});
