import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replaceTextTool } from "../../src/tools/replace_text.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

const APP = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n";

Deno.test("replaceTextTool.run() replaces the one occurrence and says where", async () => {
  await withContext({ "src/app.py": APP }, async (ctx) => {
    const result = await call(replaceTextTool, {
      path: "src/app.py",
      old: "def add(a, b):\n    return a - b",
      new: "def add(a, b):\n    return a + b",
    }, ctx);
    assert.equal(okOutput(result), "Replaced 1 occurrence in src/app.py at line 1");
    assert.equal(
      readFileSync(join(ctx.workspace.dir, "src/app.py"), "utf8"),
      APP.replace("return a - b", "return a + b"),
    );
  });
});

Deno.test("replaceTextTool.run() reports the line where the replaced text starts", async () => {
  await withContext({ "src/app.py": APP }, async (ctx) => {
    const output = okOutput(
      await call(replaceTextTool, { path: "src/app.py", old: "def sub", new: "def minus" }, ctx),
    );
    assert.equal(output, "Replaced 1 occurrence in src/app.py at line 5");
  });
});

Deno.test("replaceTextTool.run() inserts the new text literally, even with $ patterns", async () => {
  await withContext({ "a.txt": "price = X\n" }, async (ctx) => {
    okOutput(await call(replaceTextTool, { path: "a.txt", old: "X", new: "$& $1 $$" }, ctx));
    assert.equal(readFileSync(join(ctx.workspace.dir, "a.txt"), "utf8"), "price = $& $1 $$\n");
  });
});

Deno.test("replaceTextTool.run() deletes text when new is empty", async () => {
  await withContext({ "a.txt": "keep\ndrop\nkeep too\n" }, async (ctx) => {
    okOutput(await call(replaceTextTool, { path: "a.txt", old: "drop\n", new: "" }, ctx));
    assert.equal(readFileSync(join(ctx.workspace.dir, "a.txt"), "utf8"), "keep\nkeep too\n");
  });
});

Deno.test("replaceTextTool.run() refuses text that is not in the file with no_match", async () => {
  await withContext({ "src/app.py": APP }, async (ctx) => {
    // Wrong indentation is not a match.
    const message = failMessage(
      await call(replaceTextTool, { path: "src/app.py", old: "\treturn a - b", new: "" }, ctx),
      "no_match",
    );
    assert.match(message, /^Text not found in "src\/app\.py"/);
    assert.equal(readFileSync(join(ctx.workspace.dir, "src/app.py"), "utf8"), APP);
  });
});

Deno.test("replaceTextTool.run() refuses text found more than once with ambiguous_match and the lines", async () => {
  await withContext({ "src/app.py": APP }, async (ctx) => {
    const message = failMessage(
      await call(
        replaceTextTool,
        { path: "src/app.py", old: "return a - b", new: "return 0" },
        ctx,
      ),
      "ambiguous_match",
    );
    assert.equal(
      message,
      'Text occurs more than once in "src/app.py" (lines 2, 6); include more surrounding lines so it is unique',
    );
    assert.equal(readFileSync(join(ctx.workspace.dir, "src/app.py"), "utf8"), APP);
  });
});

Deno.test("replaceTextTool.run() lists at most ten lines of an ambiguous match", async () => {
  await withContext({ "a.txt": "x\n".repeat(15) }, async (ctx) => {
    const message = failMessage(
      await call(replaceTextTool, { path: "a.txt", old: "x", new: "y" }, ctx),
      "ambiguous_match",
    );
    assert.match(message, /\(lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\)/);
  });
});

Deno.test("replaceTextTool.run() refuses a protected path with protected_path", async () => {
  await withContext({ "tests/test_a.py": "assert True\n", "src/a.py": "" }, async (ctx) => {
    const message = failMessage(
      await call(replaceTextTool, { path: "tests/test_a.py", old: "True", new: "False" }, ctx),
      "protected_path",
    );
    assert.match(message, /^Cannot edit "tests\/test_a\.py": it is a protected path/);
    assert.equal(readFileSync(join(ctx.workspace.dir, "tests/test_a.py"), "utf8"), "assert True\n");
    // The same path normalized differently is still protected.
    failMessage(
      await call(
        replaceTextTool,
        { path: "./src/../tests/test_a.py", old: "True", new: "False" },
        ctx,
      ),
      "protected_path",
    );
  });
});

Deno.test("replaceTextTool.run() refuses a symlink to a protected file with protected_path", async () => {
  // Regression: protection was checked on the link's name, so a link outside tests/ edited a test.
  await withContext({ "tests/test_a.py": "assert True\n" }, async (ctx) => {
    symlinkSync("tests/test_a.py", join(ctx.workspace.dir, "alias.py"));
    failMessage(
      await call(replaceTextTool, { path: "alias.py", old: "True", new: "False" }, ctx),
      "protected_path",
    );
    assert.equal(readFileSync(join(ctx.workspace.dir, "tests/test_a.py"), "utf8"), "assert True\n");
  });
});

Deno.test("replaceTextTool.run() edits any file when the task protects nothing", async () => {
  await withContext({ "tests/test_a.py": "assert True\n" }, async (ctx) => {
    okOutput(await call(replaceTextTool, { path: "tests/test_a.py", old: "True", new: "1" }, ctx));
  }, { protected_paths: [] });
});

Deno.test("replaceTextTool.run() refuses binary files with binary_file", async () => {
  await withContext({ "data.bin": new Uint8Array([0x61, 0x00, 0x62]) }, async (ctx) => {
    failMessage(
      await call(replaceTextTool, { path: "data.bin", old: "a", new: "c" }, ctx),
      "binary_file",
    );
  });
});

Deno.test("replaceTextTool.run() refuses a folder with is_directory", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    failMessage(
      await call(replaceTextTool, { path: "src", old: "a", new: "b" }, ctx),
      "is_directory",
    );
  });
});

Deno.test("replaceTextTool.run() refuses a missing file with not_found", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    failMessage(
      await call(replaceTextTool, { path: "src/b.py", old: "a", new: "b" }, ctx),
      "not_found",
    );
  });
});

Deno.test("replaceTextTool.run() refuses paths outside the workspace", async () => {
  await withContext({ "src/a.py": "" }, async (ctx, root) => {
    failMessage(
      await call(replaceTextTool, { path: "../a.py", old: "a", new: "b" }, ctx),
      "path_outside_workspace",
    );
    failMessage(
      await call(replaceTextTool, { path: "/etc/passwd", old: "root", new: "x" }, ctx),
      "path_outside_workspace",
    );
    writeFileSync(join(root, "outside.py"), "a\n");
    symlinkSync(join(root, "outside.py"), join(ctx.workspace.dir, "out.py"));
    failMessage(
      await call(replaceTextTool, { path: "out.py", old: "a", new: "b" }, ctx),
      "path_outside_workspace",
    );
    assert.equal(readFileSync(join(root, "outside.py"), "utf8"), "a\n");
  });
});

Deno.test("replaceTextTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    mkdirSync(join(ctx.workspace.dir, ".git"));
    writeFileSync(join(ctx.workspace.dir, ".git", "config"), "[core]\n");
    failMessage(
      await call(replaceTextTool, { path: ".git/config", old: "core", new: "x" }, ctx),
      "path_not_allowed",
    );
  });
});
