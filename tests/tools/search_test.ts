import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SHARE_FILES } from "../../src/tools/_search_pool.ts";
import { searchSharesOf, searchTool } from "../../src/tools/search.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";

const REPO = {
  "src/app.py": "import os\n\ndef total(xs):\n    return sum(xs)  # total of total\n",
  "src/util.py": "def Total():\n    pass\n",
  "lib/a.ts": "export const total = 1;\n",
  "README.md": "Call total() to add (a+b).\n",
  "tests/test_a.py": "from src.app import total\n",
};

Deno.test("searchTool.run() prints path:line:text sorted by path and line", async () => {
  await withContext(REPO, async (ctx) => {
    const result = await call(searchTool, { pattern: "total" }, ctx);
    assert.equal(
      okOutput(result),
      [
        "README.md:1:Call total() to add (a+b).",
        "lib/a.ts:1:export const total = 1;",
        "src/app.py:3:def total(xs):",
        "src/app.py:4:    return sum(xs)  # total of total",
        "tests/test_a.py:1:from src.app import total",
      ].join("\n"),
    );
    assert.ok(result.ok);
    assert.equal(result.truncated, false);
    assert.deepEqual(result.meta, { matches: 5 });
  });
});

Deno.test("searchTool.run() reports a line with several matches once", async () => {
  await withContext({ "a.txt": "x x x\ny\nx\n" }, async (ctx) => {
    const result = await call(searchTool, { pattern: "x" }, ctx);
    assert.equal(okOutput(result), "a.txt:1:x x x\na.txt:3:x");
    assert.deepEqual(result.ok && result.meta, { matches: 2 });
  });
});

Deno.test("searchTool.run() takes the pattern as a regular expression", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "^def \\w+\\(" }, ctx)),
      "src/app.py:3:def total(xs):\nsrc/util.py:1:def Total():",
    );
    // "." is any character as a regex.
    assert.match(okOutput(await call(searchTool, { pattern: "a.b" }, ctx)), /README\.md:1:/);
  });
});

Deno.test("searchTool.run() takes the pattern literally with fixed_strings", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "(a+b)", fixed_strings: true }, ctx)),
      "README.md:1:Call total() to add (a+b).",
    );
    assert.equal(
      okOutput(await call(searchTool, { pattern: "a.b", fixed_strings: true }, ctx)),
      'No matches for "a.b"',
    );
    // Regex syntax that would be invalid is fine as literal text.
    assert.equal(
      okOutput(
        await call(searchTool, { pattern: "total(", fixed_strings: true, path: "src" }, ctx),
      ),
      "src/app.py:3:def total(xs):",
    );
  });
});

Deno.test("searchTool.run() ignores case when case_sensitive is false", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "def Total" }, ctx)),
      "src/util.py:1:def Total():",
    );
    assert.equal(
      okOutput(await call(searchTool, { pattern: "def TOTAL", case_sensitive: false }, ctx)),
      "src/app.py:3:def total(xs):\nsrc/util.py:1:def Total():",
    );
  });
});

Deno.test("searchTool.run() searches only files matching the glob", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "total", glob: "*.ts" }, ctx)),
      "lib/a.ts:1:export const total = 1;",
    );
    assert.equal(
      okOutput(await call(searchTool, { pattern: "total", glob: "{src,lib}/*.py" }, ctx)),
      "src/app.py:3:def total(xs):\nsrc/app.py:4:    return sum(xs)  # total of total",
    );
  });
});

Deno.test("searchTool.run() narrows to a folder or to one file", async () => {
  await withContext(REPO, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "total", path: "tests" }, ctx)),
      "tests/test_a.py:1:from src.app import total",
    );
    assert.equal(
      okOutput(await call(searchTool, { pattern: "total", path: "src/app.py" }, ctx)),
      "src/app.py:3:def total(xs):\nsrc/app.py:4:    return sum(xs)  # total of total",
    );
  });
});

Deno.test("searchTool.run() shows max_results lines and counts the rest", async () => {
  const files: Record<string, string> = {};
  for (const name of ["a.py", "b.py", "c.py"]) files[name] = "hit\nmiss\nhit\nhit\n";
  await withContext(files, async (ctx) => {
    const result = await call(searchTool, { pattern: "hit", max_results: 4 }, ctx);
    assert.equal(
      okOutput(result),
      [
        "a.py:1:hit",
        "a.py:3:hit",
        "a.py:4:hit",
        "b.py:1:hit",
        "[5 more matching lines not shown (9 in 3 files); narrow the pattern, path or glob]",
      ].join("\n"),
    );
    assert.ok(result.ok);
    assert.equal(result.truncated, true);
    assert.deepEqual(result.meta, { matches: 9 });
  });
});

Deno.test("searchTool.run() skips binary files, noise folders and symlinks", async () => {
  await withContext({
    "a.py": "needle\n",
    "blob.bin": new Uint8Array([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x0a]),
  }, async (ctx) => {
    for (const folder of [".git", "node_modules", "__pycache__"]) {
      mkdirSync(join(ctx.workspace.dir, folder));
      writeFileSync(join(ctx.workspace.dir, folder, "x.py"), "needle\n");
    }
    symlinkSync("a.py", join(ctx.workspace.dir, "link.py"));
    assert.equal(okOutput(await call(searchTool, { pattern: "needle" }, ctx)), "a.py:1:needle");
  });
});

Deno.test("searchTool.run() cuts long matching lines", async () => {
  await withContext({ "a.txt": `needle ${"z".repeat(1000)}\n` }, async (ctx) => {
    const output = okOutput(await call(searchTool, { pattern: "needle" }, ctx));
    assert.equal(output, `a.txt:1:needle ${"z".repeat(293)} [...]`);
  });
});

Deno.test("searchTool.run() strips carriage returns and counts lines across CRLF files", async () => {
  await withContext({ "win.txt": "one\r\ntwo\r\nthree\r\n" }, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "t" }, ctx)),
      "win.txt:2:two\nwin.txt:3:three",
    );
  });
});

Deno.test("searchTool.run() reports no line after the final newline", async () => {
  // Regression: an empty match at the very end of a file ending in "\n" was reported as an extra line.
  await withContext({ "a.txt": "one\n\ntwo\n", "empty.txt": "", "open.txt": "x" }, async (ctx) => {
    assert.equal(
      okOutput(await call(searchTool, { pattern: "^$", path: "a.txt" }, ctx)),
      "a.txt:2:",
    );
    assert.equal(
      okOutput(await call(searchTool, { pattern: "$" }, ctx)),
      "a.txt:1:one\na.txt:2:\na.txt:3:two\nopen.txt:1:x",
    );
  });
});

Deno.test("searchTool.run() says when nothing matches", async () => {
  await withContext(REPO, async (ctx) => {
    const result = await call(searchTool, { pattern: "nowhere" }, ctx);
    assert.equal(okOutput(result), 'No matches for "nowhere"');
    assert.equal(result.ok && result.meta, undefined);
  });
});

Deno.test("searchTool.run() refuses an invalid regex with invalid_regex", async () => {
  await withContext(REPO, async (ctx) => {
    const message = failMessage(
      await call(searchTool, { pattern: "total(" }, ctx),
      "invalid_regex",
    );
    assert.match(
      message,
      /^Invalid regular expression "total\(": .*Unterminated group.*; fix it or pass fixed_strings: true$/,
    );
  });
});

Deno.test("searchTool.run() refuses a missing path with not_found", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(await call(searchTool, { pattern: "x", path: "nope" }, ctx), "not_found");
  });
});

Deno.test("searchTool.run() refuses paths outside the workspace", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(
      await call(searchTool, { pattern: "root", path: "/etc" }, ctx),
      "path_outside_workspace",
    );
    failMessage(
      await call(searchTool, { pattern: "root", path: "../.." }, ctx),
      "path_outside_workspace",
    );
    symlinkSync("/etc/passwd", join(ctx.workspace.dir, "passwd"));
    failMessage(
      await call(searchTool, { pattern: "root", path: "passwd" }, ctx),
      "path_outside_workspace",
    );
  });
});

Deno.test("searchTool.run() refuses version-control data with path_not_allowed", async () => {
  await withContext(REPO, async (ctx) => {
    failMessage(await call(searchTool, { pattern: "x", path: ".git" }, ctx), "path_not_allowed");
  });
});

// Issue 10: `^(a+)+$` on 40 "a"s and a "!" backtracked for minutes in-process and stalled every
// other episode.
Deno.test("searchTool.run() stops a catastrophic pattern at its deadline while other searches answer", async () => {
  await withContext({ "evil.txt": `${"a".repeat(40)}!\n`, "ok.txt": "needle\n" }, async (ctx) => {
    const slowCtx = { ...ctx, limits: { searchTimeoutMs: 1_000 } };
    let slowDone = false;
    const slow = call(searchTool, { pattern: "^(a+)+$" }, slowCtx).finally(() => slowDone = true);
    // Answered while the catastrophic search still runs: the thread is free.
    for (let i = 0; i < 3; i++) {
      assert.equal(okOutput(await call(searchTool, { pattern: "needle" }, ctx)), "ok.txt:1:needle");
    }
    assert.equal(slowDone, false);
    const message = failMessage(await slow, "timeout");
    assert.match(message, /^Search for "\^\(a\+\)\+\$" stopped after 1 s: .*fixed_strings/);
    // The pool recovers: a worker replaces the terminated one.
    assert.equal(okOutput(await call(searchTool, { pattern: "needle" }, ctx)), "ok.txt:1:needle");
  });
});

Deno.test("searchTool.run() also bounds a backreference pattern no linear engine could run", async () => {
  await withContext({ "evil.txt": `${"a".repeat(40)}!\n` }, async (ctx) => {
    const result = await call(searchTool, { pattern: "^(a+)+\\1$" }, {
      ...ctx,
      limits: { searchTimeoutMs: 200 },
    });
    failMessage(result, "timeout");
  });
});

Deno.test("searchTool.run() searches a big repository in shares and answers as for a small one", async () => {
  // Over SHARE_FILES files: on more than one core, several workers each take a share.
  const files: Record<string, string> = {};
  const expected: string[] = [];
  for (let d = 0; d < 4; d++) {
    for (let f = 0; f < 300; f++) {
      const path = `d${d}/f${String(f).padStart(3, "0")}.py`;
      const hit = (d * 300 + f) % 7 === 0;
      files[path] = hit ? `x = 1\nneedle = ${f}\nneedle()\n` : "x = 1\n";
      if (hit) expected.push(`${path}:2:needle = ${f}`, `${path}:3:needle()`);
    }
  }
  assert.ok(Object.keys(files).length >= SHARE_FILES);
  await withContext(files, async (ctx) => {
    const result = await call(searchTool, { pattern: "needle", max_results: 1000 }, ctx);
    assert.equal(okOutput(result), expected.join("\n"));
    const cut = await call(searchTool, { pattern: "^needle =", max_results: 5 }, ctx);
    const firsts = expected.filter((line) => line.includes(":2:"));
    assert.equal(
      okOutput(cut),
      [
        ...firsts.slice(0, 5),
        `[${
          firsts.length - 5
        } more matching lines not shown (${firsts.length} in ${firsts.length} files); narrow the pattern, path or glob]`,
      ].join("\n"),
    );
  });
});

Deno.test("searchSharesOf() splits a big repository's search only for text that cannot backtrack", () => {
  const big = SHARE_FILES * 3;
  const shares = searchSharesOf({ pattern: "needle", fixed_strings: false }, big);
  assert.equal(shares > 1, navigator.hardwareConcurrency > 1);
  assert.equal(searchSharesOf({ pattern: "needle", fixed_strings: false }, 10), 1);
  // A regular expression may backtrack past its deadline, and so may a glob: one worker.
  assert.equal(searchSharesOf({ pattern: "^(a+)+$", fixed_strings: false }, big), 1);
  assert.equal(searchSharesOf({ pattern: "need.e", fixed_strings: false }, big), 1);
  assert.equal(searchSharesOf({ pattern: "needle", fixed_strings: false, glob: "*a*a*b" }, big), 1);
  // Regular-expression characters taken literally cannot backtrack.
  assert.equal(searchSharesOf({ pattern: "(a+)+", fixed_strings: true }, big), shares);
});
