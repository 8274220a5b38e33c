import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileTool } from "../../src/tools/write_file.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

Deno.test("writeFileTool.run() creates a file and its missing folders", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    const result = await call(writeFileTool, {
      path: "src/pkg/deep/new.py",
      content: "x = 1\ny = 2\n",
    }, ctx);
    assert.equal(okOutput(result), "Created src/pkg/deep/new.py (2 lines)");
    assert.equal(
      readFileSync(join(ctx.workspace.dir, "src/pkg/deep/new.py"), "utf8"),
      "x = 1\ny = 2\n",
    );
  });
});

Deno.test("writeFileTool.run() overwrites an existing file", async () => {
  await withContext({ "src/a.py": "old\nold\nold\n" }, async (ctx) => {
    const output = okOutput(await call(writeFileTool, { path: "src/a.py", content: "new" }, ctx));
    assert.equal(output, "Overwrote src/a.py (1 lines)");
    assert.equal(readFileSync(join(ctx.workspace.dir, "src/a.py"), "utf8"), "new");
  });
});

Deno.test("writeFileTool.run() writes an empty file", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    assert.equal(
      okOutput(await call(writeFileTool, { path: "empty.txt", content: "" }, ctx)),
      "Created empty.txt (0 lines)",
    );
    assert.equal(readFileSync(join(ctx.workspace.dir, "empty.txt"), "utf8"), "");
  });
});

Deno.test("writeFileTool.run() writes through a symlink that stays inside the workspace", async () => {
  await withContext({ "src/a.py": "old\n" }, async (ctx) => {
    symlinkSync("src", join(ctx.workspace.dir, "code"));
    okOutput(await call(writeFileTool, { path: "code/a.py", content: "new\n" }, ctx));
    okOutput(await call(writeFileTool, { path: "code/b.py", content: "b\n" }, ctx));
    assert.equal(readFileSync(join(ctx.workspace.dir, "src/a.py"), "utf8"), "new\n");
    assert.equal(readFileSync(join(ctx.workspace.dir, "src/b.py"), "utf8"), "b\n");
  });
});

Deno.test("writeFileTool.run() refuses a protected path with protected_path", async () => {
  await withContext({ "tests/test_a.py": "assert True\n" }, async (ctx) => {
    const message = failMessage(
      await call(writeFileTool, { path: "tests/test_a.py", content: "" }, ctx),
      "protected_path",
    );
    assert.match(message, /^Cannot write "tests\/test_a\.py": it is a protected path/);
    assert.equal(readFileSync(join(ctx.workspace.dir, "tests/test_a.py"), "utf8"), "assert True\n");
    // New files under a protected folder are refused too.
    failMessage(
      await call(writeFileTool, { path: "tests/new/test_b.py", content: "" }, ctx),
      "protected_path",
    );
    assert.equal(existsSync(join(ctx.workspace.dir, "tests/new")), false);
  });
});

Deno.test("writeFileTool.run() refuses a protected file named exactly", async () => {
  await withContext({ "setup.cfg": "[x]\n", "setup.cfg.bak": "" }, async (ctx) => {
    failMessage(
      await call(writeFileTool, { path: "setup.cfg", content: "" }, ctx),
      "protected_path",
    );
    okOutput(await call(writeFileTool, { path: "setup.cfg.bak", content: "" }, ctx));
  }, { protected_paths: ["setup.cfg"] });
});

Deno.test("writeFileTool.run() refuses a symlink to a protected path with protected_path", async () => {
  // Regression: protection was checked on the link's name, so a link outside tests/ wrote into tests/.
  await withContext({ "tests/test_a.py": "assert True\n" }, async (ctx) => {
    symlinkSync("tests/test_a.py", join(ctx.workspace.dir, "alias.py"));
    symlinkSync("tests", join(ctx.workspace.dir, "t"));
    failMessage(
      await call(writeFileTool, { path: "alias.py", content: "" }, ctx),
      "protected_path",
    );
    failMessage(
      await call(writeFileTool, { path: "t/test_new.py", content: "" }, ctx),
      "protected_path",
    );
    assert.equal(readFileSync(join(ctx.workspace.dir, "tests/test_a.py"), "utf8"), "assert True\n");
    assert.equal(existsSync(join(ctx.workspace.dir, "tests/test_new.py")), false);
  });
});

Deno.test("writeFileTool.run() refuses a folder with is_directory", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    const message = failMessage(
      await call(writeFileTool, { path: "src", content: "x" }, ctx),
      "is_directory",
    );
    assert.match(message, /"src" is a folder/);
    failMessage(await call(writeFileTool, { path: ".", content: "x" }, ctx), "is_directory");
  });
});

Deno.test("writeFileTool.run() refuses a path under a file with invalid_input", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    const message = failMessage(
      await call(writeFileTool, { path: "src/a.py/b.py", content: "" }, ctx),
      "invalid_input",
    );
    assert.match(message, /"src\/a\.py" is a file, not a folder/);
  });
});

Deno.test("writeFileTool.run() refuses paths outside the workspace", async () => {
  await withContext({ "src/a.py": "" }, async (ctx, root) => {
    failMessage(
      await call(writeFileTool, { path: "../escape.txt", content: "x" }, ctx),
      "path_outside_workspace",
    );
    failMessage(
      await call(writeFileTool, { path: "/tmp/escape.txt", content: "x" }, ctx),
      "path_outside_workspace",
    );
    mkdirSync(join(root, "outside"));
    symlinkSync(join(root, "outside"), join(ctx.workspace.dir, "out"));
    const message = failMessage(
      await call(writeFileTool, { path: "out/new/escape.txt", content: "x" }, ctx),
      "path_outside_workspace",
    );
    assert.match(message, /symlink/);
    writeFileSync(join(root, "target.txt"), "keep\n");
    symlinkSync(join(root, "target.txt"), join(ctx.workspace.dir, "target.txt"));
    failMessage(
      await call(writeFileTool, { path: "target.txt", content: "x" }, ctx),
      "path_outside_workspace",
    );
    assert.equal(existsSync(join(root, "escape.txt")), false);
    assert.equal(existsSync(join(root, "outside", "new")), false);
    assert.equal(readFileSync(join(root, "target.txt"), "utf8"), "keep\n");
  });
});

Deno.test("writeFileTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    failMessage(
      await call(writeFileTool, { path: ".git/hooks/pre-commit", content: "x" }, ctx),
      "path_not_allowed",
    );
    assert.equal(existsSync(join(ctx.workspace.dir, ".git")), false);
  });
});

Deno.test("writeFileTool.run() refuses an empty path with invalid_input", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    failMessage(await call(writeFileTool, { path: " ", content: "x" }, ctx), "invalid_input");
  });
});

Deno.test("writeFileTool.run() refuses content over the write limit and paths too deep", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    ctx.limits = { maxWriteBytes: 10 };
    const big = await call(writeFileTool, { path: "big.txt", content: "x".repeat(11) }, ctx);
    assert.match(
      failMessage(big, "file_too_large"),
      /11 bytes, over the limit of 10 bytes per write/,
    );
    const deep = await call(
      writeFileTool,
      { path: `${"d/".repeat(33)}f.txt`, content: "" },
      ctx,
    );
    assert.match(failMessage(deep, "path_too_deep"), /34 folders deep, over the limit of 32/);
    assert.equal(existsSync(join(ctx.workspace.dir, "big.txt")), false);
    assert.equal(existsSync(join(ctx.workspace.dir, "d")), false);
  });
});
