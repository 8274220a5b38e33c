import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listFilesTool } from "../../src/tools/list_files.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

const REPO = {
  "README.md": "# demo\n",
  "src/app.py": "",
  "src/util/helpers.py": "",
  "src/web/index.ts": "",
  "src/web/deep/view.ts": "",
  "tests/test_a.py": "",
  "b.txt": "",
};

/** Put noise (VCS data, caches, dependencies, bytecode) in the workspace after it is made. */
function addNoise(dir: string): void {
  for (const folder of [".git", "node_modules/pkg", "src/__pycache__", ".pytest_cache"]) {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, "noise.py"), "");
  }
  writeFileSync(join(dir, "src", "app.cpython-311.pyc"), "");
}

Deno.test("listFilesTool.run() lists every file, sorted by folder then name", async () => {
  await withContext(REPO, async (ctx) => {
    const result = await call(listFilesTool, {}, ctx);
    assert.equal(
      okOutput(result),
      [
        "README.md",
        "b.txt",
        "src/app.py",
        "src/util/helpers.py",
        "src/web/deep/view.ts",
        "src/web/index.ts",
        "tests/test_a.py",
      ].join("\n"),
    );
    assert.equal(result.ok && result.truncated, false);
  });
});

Deno.test("listFilesTool.run() skips .git, node_modules, caches and bytecode", async () => {
  await withContext(REPO, async (ctx) => {
    addNoise(ctx.workspace.dir);
    const output = okOutput(await call(listFilesTool, {}, ctx));
    assert.doesNotMatch(output, /\.git|node_modules|__pycache__|pytest_cache|\.pyc|noise/);
    assert.equal(output.split("\n").length, 7);
  });
});

Deno.test("listFilesTool.run() filters with a glob matching names in any folder", async () => {
  await withContext(REPO, async (ctx) => {
    const output = okOutput(await call(listFilesTool, { glob: "*.py" }, ctx));
    assert.equal(output, "src/app.py\nsrc/util/helpers.py\ntests/test_a.py");
  });
});

Deno.test("listFilesTool.run() filters with an anchored ** glob", async () => {
  await withContext(REPO, async (ctx) => {
    const output = okOutput(await call(listFilesTool, { glob: "src/**/*.ts" }, ctx));
    assert.equal(output, "src/web/deep/view.ts\nsrc/web/index.ts");
  });
});

Deno.test("listFilesTool.run() filters with {a,b} alternatives", async () => {
  await withContext(REPO, async (ctx) => {
    const output = okOutput(await call(listFilesTool, { glob: "*.{md,txt}" }, ctx));
    assert.equal(output, "README.md\nb.txt");
  });
});

Deno.test("listFilesTool.run() lists one folder, with paths still relative to the root", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(listFilesTool, { path: "src/web" }, ctx)),
      "src/web/deep/view.ts\nsrc/web/index.ts",
    );
    // An anchored glob is matched against the root-relative path.
    assert.equal(
      okOutput(await call(listFilesTool, { path: "src", glob: "src/util/*" }, ctx)),
      "src/util/helpers.py",
    );
  });
});

Deno.test("listFilesTool.run() marks symlinks without following them", async () => {
  await withContext(REPO, async (ctx) => {
    symlinkSync("src", join(ctx.workspace.dir, "linked"));
    const output = okOutput(await call(listFilesTool, {}, ctx));
    assert.match(output, /^linked \(symlink\)$/m);
    assert.doesNotMatch(output, /linked\//);
  });
});

Deno.test("listFilesTool.run() says when no file matches", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(listFilesTool, { glob: "*.rs" }, ctx)),
      'No files match "*.rs"',
    );
  });
  await withContext({ "empty/.keep": "" }, async (ctx) => {
    Deno.removeSync(join(ctx.workspace.dir, "empty", ".keep"));
    assert.equal(okOutput(await call(listFilesTool, {}, ctx)), "No files");
  });
});

Deno.test("listFilesTool.run() shows at most 500 files and counts the rest", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 620; i++) files[`gen/f${String(i).padStart(4, "0")}.py`] = "";
  await withContext(files, async (ctx) => {
    const result = await call(listFilesTool, {}, ctx);
    const lines = okOutput(result).split("\n");
    assert.equal(result.ok && result.truncated, true);
    assert.equal(lines.length, 501);
    assert.equal(lines[0], "gen/f0000.py");
    assert.equal(lines[499], "gen/f0499.py");
    assert.equal(lines[500], "[120 more files not shown; narrow the glob or path]");
  });
});

Deno.test("listFilesTool.run() refuses a file path with invalid_input", async () => {
  await withContext(REPO, async (ctx) => {
    const message = failMessage(
      await call(listFilesTool, { path: "src/app.py" }, ctx),
      "invalid_input",
    );
    assert.match(message, /"src\/app\.py" is a file/);
  });
});

Deno.test("listFilesTool.run() refuses a missing folder with not_found", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(await call(listFilesTool, { path: "lib" }, ctx), "not_found");
  });
});

Deno.test("listFilesTool.run() refuses paths outside the workspace", async () => {
  await withContext(REPO, async (ctx, root) => {
    failMessage(await call(listFilesTool, { path: ".." }, ctx), "path_outside_workspace");
    failMessage(await call(listFilesTool, { path: "/etc" }, ctx), "path_outside_workspace");
    symlinkSync(root, join(ctx.workspace.dir, "up"));
    failMessage(await call(listFilesTool, { path: "up" }, ctx), "path_outside_workspace");
  });
});

Deno.test("listFilesTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext(REPO, async (ctx) => {
    addNoise(ctx.workspace.dir);
    failMessage(await call(listFilesTool, { path: ".git" }, ctx), "path_not_allowed");
  });
});

// Attack: run_command can leave a million files (about 130,000 in one 20-second command); listing
// them all blocked the orchestrator's thread, and every other episode with it, for seconds.
Deno.test("listFilesTool.run() stops reading a huge tree at its entry limit and says so", async () => {
  await withContext(REPO, async (ctx) => {
    for (let i = 0; i < 30; i++) writeFileSync(join(ctx.workspace.dir, `f${i}.txt`), "");
    const limited = { ...ctx, limits: { maxListEntries: 20 } };
    const result = await call(listFilesTool, {}, limited);
    const output = okOutput(result);
    assert.match(
      output,
      /\n\[stopped after reading 20 entries: the tree is too big to list whole; list a subfolder or narrow the glob\]$/,
    );
    assert.equal(result.ok && result.truncated, true);
  });
});
