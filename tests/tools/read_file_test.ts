import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readFileTool } from "../../src/tools/read_file.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

function lines(count: number, make = (i: number) => `line ${i}`): string {
  return Array.from({ length: count }, (_, i) => make(i + 1)).join("\n") + "\n";
}

Deno.test("readFileTool.run() shows numbered lines", async () => {
  await withContext({ "src/app.py": "def f():\n    return 1\n" }, async (ctx) => {
    const result = await call(readFileTool, { path: "src/app.py" }, ctx);
    assert.equal(okOutput(result), "1| def f():\n2|     return 1");
    assert.equal(result.ok && result.truncated, false);
  });
});

Deno.test("readFileTool.run() pads line numbers to the widest shown", async () => {
  await withContext({ "a.txt": lines(12) }, async (ctx) => {
    const output = okOutput(await call(readFileTool, { path: "a.txt", start_line: 8 }, ctx));
    assert.equal(output, " 8| line 8\n 9| line 9\n10| line 10\n11| line 11\n12| line 12");
  });
});

Deno.test("readFileTool.run() pages with start_line and max_lines and says how to read on", async () => {
  await withContext({ "a.txt": lines(10) }, async (ctx) => {
    const result = await call(readFileTool, { path: "a.txt", start_line: 3, max_lines: 4 }, ctx);
    assert.equal(
      okOutput(result),
      "3| line 3\n4| line 4\n5| line 5\n6| line 6\n[lines 3-6 of 10; continue with start_line=7]",
    );
    assert.equal(result.ok && result.truncated, true);
  });
});

Deno.test("readFileTool.run() shows no footer when the page reaches the end", async () => {
  await withContext({ "a.txt": lines(5) }, async (ctx) => {
    const output = okOutput(
      await call(readFileTool, { path: "a.txt", start_line: 4, max_lines: 10 }, ctx),
    );
    assert.equal(output, "4| line 4\n5| line 5");
  });
});

Deno.test("readFileTool.run() reads the default 400 lines and points to the next page", async () => {
  await withContext({ "a.txt": lines(450) }, async (ctx) => {
    const output = okOutput(await call(readFileTool, { path: "a.txt" }, ctx));
    const shown = output.split("\n");
    assert.equal(shown.length, 401);
    assert.equal(shown[399], "400| line 400");
    assert.equal(shown[400], "[lines 1-400 of 450; continue with start_line=401]");
  });
});

Deno.test("readFileTool.run() reads a last line without a trailing newline", async () => {
  await withContext({ "a.txt": "one\ntwo" }, async (ctx) => {
    assert.equal(okOutput(await call(readFileTool, { path: "a.txt" }, ctx)), "1| one\n2| two");
  });
});

Deno.test("readFileTool.run() cuts a very long line", async () => {
  await withContext({ "a.txt": `short\n${"x".repeat(5000)}\n` }, async (ctx) => {
    const output = okOutput(await call(readFileTool, { path: "a.txt" }, ctx));
    const [, second] = output.split("\n");
    assert.equal(second, `2| ${"x".repeat(1000)} [... line cut at 1000 characters]`);
  });
});

Deno.test("readFileTool.run() stops at the byte cap and says where to continue", async () => {
  // 200 lines of 900 characters is about 180 KB, far over the 48 KiB cap.
  await withContext({ "big.txt": lines(200, () => "y".repeat(900)) }, async (ctx) => {
    const result = await call(readFileTool, { path: "big.txt" }, ctx);
    const output = okOutput(result);
    assert.equal(result.ok && result.truncated, true);
    assert.ok(output.length <= 48 * 1024 + 200, `output is ${output.length} characters`);
    const shown = output.split("\n");
    const footer = shown.pop()!;
    const match = footer.match(/^\[lines 1-(\d+) of 200; continue with start_line=(\d+)\]$/);
    assert.ok(match, footer);
    assert.equal(Number(match[1]), shown.length);
    assert.equal(Number(match[2]), shown.length + 1);
    assert.ok(shown.length > 40 && shown.length < 60, `${shown.length} lines shown`);
  });
});

Deno.test("readFileTool.run() shows a single line with max_lines 1", async () => {
  await withContext({ "a.txt": lines(3, () => "z".repeat(1000)) }, async (ctx) => {
    const output = okOutput(
      await call(readFileTool, { path: "a.txt", start_line: 2, max_lines: 1 }, ctx),
    );
    assert.equal(output, `2| ${"z".repeat(1000)}\n[lines 2-2 of 3; continue with start_line=3]`);
  });
});

Deno.test("readFileTool.run() says an empty file is empty", async () => {
  await withContext({ "empty.py": "" }, async (ctx) => {
    assert.equal(
      okOutput(await call(readFileTool, { path: "empty.py" }, ctx)),
      "[empty.py is empty]",
    );
  });
});

Deno.test("readFileTool.run() reads through a symlink that stays inside the workspace", async () => {
  await withContext({ "src/a.py": "x = 1\n" }, async (ctx) => {
    symlinkSync("src/a.py", join(ctx.workspace.dir, "link.py"));
    assert.equal(okOutput(await call(readFileTool, { path: "link.py" }, ctx)), "1| x = 1");
  });
});

Deno.test("readFileTool.run() refuses a missing file with not_found", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    const message = failMessage(await call(readFileTool, { path: "b.py" }, ctx), "not_found");
    assert.match(message, /"b\.py" does not exist/);
  });
});

Deno.test("readFileTool.run() refuses a broken symlink with not_found", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    symlinkSync("gone.py", join(ctx.workspace.dir, "dangling.py"));
    failMessage(await call(readFileTool, { path: "dangling.py" }, ctx), "not_found");
  });
});

Deno.test("readFileTool.run() refuses a folder with is_directory", async () => {
  await withContext({ "src/a.py": "" }, async (ctx) => {
    const message = failMessage(await call(readFileTool, { path: "src" }, ctx), "is_directory");
    assert.match(message, /"src" is a folder/);
    failMessage(await call(readFileTool, { path: "." }, ctx), "is_directory");
  });
});

Deno.test("readFileTool.run() refuses binary files", async () => {
  await withContext({
    "img.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    "latin1.txt": new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  }, async (ctx) => {
    const message = failMessage(await call(readFileTool, { path: "img.png" }, ctx), "binary_file");
    assert.match(message, /"img\.png" is binary/);
    // Invalid UTF-8 counts as binary too.
    failMessage(await call(readFileTool, { path: "latin1.txt" }, ctx), "binary_file");
  });
});

Deno.test("readFileTool.run() refuses paths outside the workspace", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    failMessage(await call(readFileTool, { path: "../x" }, ctx), "path_outside_workspace");
    failMessage(await call(readFileTool, { path: "src/../../x" }, ctx), "path_outside_workspace");
    const message = failMessage(
      await call(readFileTool, { path: "/etc/passwd" }, ctx),
      "path_outside_workspace",
    );
    assert.match(message, /absolute/);
    failMessage(await call(readFileTool, { path: "~/.bashrc" }, ctx), "path_outside_workspace");
  });
});

Deno.test("readFileTool.run() refuses a symlink inside the workspace that points outside", async () => {
  await withContext({ "a.py": "" }, async (ctx, root) => {
    writeFileSync(join(root, "secret.txt"), "token\n");
    symlinkSync(join(root, "secret.txt"), join(ctx.workspace.dir, "secret.txt"));
    symlinkSync("/etc/passwd", join(ctx.workspace.dir, "passwd"));
    mkdirSync(join(root, "outside"));
    writeFileSync(join(root, "outside", "b.py"), "b\n");
    symlinkSync(join(root, "outside"), join(ctx.workspace.dir, "out"));
    for (const path of ["secret.txt", "passwd", "out/b.py"]) {
      const message = failMessage(
        await call(readFileTool, { path }, ctx),
        "path_outside_workspace",
      );
      assert.match(message, /symlink/);
    }
  });
});

Deno.test("readFileTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    mkdirSync(join(ctx.workspace.dir, ".git"));
    writeFileSync(join(ctx.workspace.dir, ".git", "config"), "[core]\n");
    failMessage(await call(readFileTool, { path: ".git/config" }, ctx), "path_not_allowed");
    failMessage(await call(readFileTool, { path: "sub/.git/HEAD" }, ctx), "path_not_allowed");
  });
});

Deno.test("readFileTool.run() refuses an empty path with invalid_input", async () => {
  await withContext({ "a.py": "" }, async (ctx) => {
    failMessage(await call(readFileTool, { path: "" }, ctx), "invalid_input");
    failMessage(await call(readFileTool, { path: "a\0.py" }, ctx), "invalid_input");
  });
});

Deno.test("readFileTool.run() refuses a start_line past the end with invalid_input", async () => {
  await withContext({ "a.txt": lines(3) }, async (ctx) => {
    const message = failMessage(
      await call(readFileTool, { path: "a.txt", start_line: 4 }, ctx),
      "invalid_input",
    );
    assert.equal(message, 'Cannot read "a.txt" from line 4: the file has 3 lines');
  });
});

Deno.test("readFileTool.run() refuses a file over the size limit before reading it", async () => {
  await withContext({ "big.txt": "z".repeat(5000), "a.txt": "a\n" }, async (ctx) => {
    const limited = { ...ctx, limits: { maxFileBytes: 4096 } };
    assert.equal(
      failMessage(await call(readFileTool, { path: "big.txt" }, limited), "file_too_large"),
      'File "big.txt" is 4.9 KiB, over the 4.0 KiB limit for files that can be read; use search to find the lines you need',
    );
    assert.match(okOutput(await call(readFileTool, { path: "a.txt" }, limited)), /1\| a/);
  });
});
