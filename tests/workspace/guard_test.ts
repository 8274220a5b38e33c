import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardPath } from "../../src/workspace/guard.ts";
import { writeFiles } from "../_fixtures.ts";

/** Run `fn` with a real workspace root (holding `files`) and a sibling folder outside it. */
async function withRoots(
  files: Record<string, string>,
  fn: (root: string, outside: string) => Promise<void> | void,
): Promise<void> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-guard-" }));
  try {
    const root = join(base, "ws");
    const outside = join(base, "outside");
    mkdirSync(root);
    mkdirSync(outside);
    writeFiles(root, files);
    writeFileSync(join(outside, "secret.txt"), "secret");
    await fn(root, outside);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function refusal(result: ReturnType<typeof guardPath>): { code: string; message: string } {
  assert.equal(result.ok, false, `expected a refusal, got ${JSON.stringify(result)}`);
  return result as { code: string; message: string };
}

Deno.test("guardPath() resolves a relative file path inside the workspace", async () => {
  await withRoots({ "src/app.py": "x = 1\n" }, (root) => {
    const result = guardPath(root, "src/app.py");
    assert.deepEqual(result, {
      ok: true,
      abs: join(root, "src/app.py"),
      rel: "src/app.py",
      realRel: "src/app.py",
      exists: true,
      isDir: false,
    });
  });
});

Deno.test("guardPath() normalises ./, inner .. and trailing slashes", async () => {
  await withRoots({ "src/app.py": "" }, (root) => {
    const file = guardPath(root, "./src/../src/app.py");
    assert.ok(file.ok);
    assert.equal(file.rel, "src/app.py");
    const dir = guardPath(root, "src/");
    assert.ok(dir.ok);
    assert.equal(dir.rel, "src");
    assert.equal(dir.isDir, true);
    const top = guardPath(root, ".");
    assert.ok(top.ok);
    assert.equal(top.abs, root);
    assert.equal(top.isDir, true);
  });
});

Deno.test("guardPath() refuses .. escapes", async () => {
  await withRoots({ "a.txt": "" }, (root) => {
    for (const path of ["..", "../outside/secret.txt", "src/../../outside", "a/b/../../../x"]) {
      const result = refusal(guardPath(root, path));
      assert.equal(result.code, "path_outside_workspace", path);
      assert.match(result.message, /leaves the workspace through "\.\."/);
    }
  });
});

Deno.test("guardPath() refuses backslash .. escapes", async () => {
  await withRoots({ "a.txt": "" }, (root) => {
    assert.equal(
      refusal(guardPath(root, "..\\outside\\secret.txt")).code,
      "path_outside_workspace",
    );
  });
});

Deno.test("guardPath() refuses absolute, home and drive paths", async () => {
  await withRoots({ "a.txt": "" }, (root) => {
    for (const path of [join(root, "a.txt"), "/etc/passwd", "~", "~/.ssh/id_rsa", "C:\\x"]) {
      const result = refusal(guardPath(root, path));
      assert.equal(result.code, "path_outside_workspace", path);
      assert.match(result.message, /is absolute; use a path relative to the workspace root/);
    }
  });
});

Deno.test("guardPath() refuses empty, blank and NUL paths as invalid input", async () => {
  await withRoots({ "a.txt": "" }, (root) => {
    for (const path of ["", "   ", "a.txt\0", "\0"]) {
      const result = refusal(guardPath(root, path));
      assert.equal(result.code, "invalid_input", JSON.stringify(path));
      assert.match(result.message, /empty or contains a NUL byte/);
    }
  });
});

Deno.test("guardPath() refuses version-control internals", async () => {
  await withRoots({ ".git/config": "[core]\n", "sub/.hg/store": "" }, (root) => {
    for (const path of [".git", ".git/config", "sub/.hg/store", ".svn/x", "a/../.git/HEAD"]) {
      const result = refusal(guardPath(root, path, { allowMissing: true }));
      assert.equal(result.code, "path_not_allowed", path);
      assert.match(result.message, /version-control data/);
    }
    // A name that merely starts with .git is an ordinary file.
    writeFileSync(join(root, ".gitignore"), "*.pyc\n");
    assert.ok(guardPath(root, ".gitignore").ok);
  });
});

Deno.test("guardPath() reports a missing path unless allowMissing", async () => {
  await withRoots({ "src/app.py": "" }, (root) => {
    const result = refusal(guardPath(root, "src/nope.py"));
    assert.equal(result.code, "not_found");
    assert.match(result.message, /Path "src\/nope.py" does not exist/);
  });
});

Deno.test("guardPath() allows a new nested file with allowMissing", async () => {
  await withRoots({ "src/app.py": "" }, (root) => {
    const result = guardPath(root, "src/new/deep/mod.py", { allowMissing: true });
    assert.deepEqual(result, {
      ok: true,
      abs: join(root, "src/new/deep/mod.py"),
      rel: "src/new/deep/mod.py",
      realRel: "src/new/deep/mod.py",
      exists: false,
      isDir: false,
    });
    const top = guardPath(root, "fresh.txt", { allowMissing: true });
    assert.ok(top.ok);
    assert.equal(top.abs, join(root, "fresh.txt"));
  });
});

Deno.test("guardPath() refuses a new file under an existing file", async () => {
  await withRoots({ "src/app.py": "" }, (root) => {
    const result = refusal(guardPath(root, "src/app.py/x.py", { allowMissing: true }));
    assert.equal(result.code, "invalid_input");
    assert.match(result.message, /"src\/app.py" is a file, not a folder/);
  });
});

Deno.test("guardPath() refuses a symlink to a file outside the workspace", async () => {
  await withRoots({}, (root, outside) => {
    symlinkSync(join(outside, "secret.txt"), join(root, "leak.txt"));
    for (const options of [{}, { allowMissing: true }]) {
      const result = refusal(guardPath(root, "leak.txt", options));
      assert.equal(result.code, "path_outside_workspace");
      assert.match(result.message, /resolves outside the workspace through a symlink/);
    }
  });
});

Deno.test("guardPath() refuses a symlink to a folder outside, and files under it", async () => {
  await withRoots({}, (root, outside) => {
    symlinkSync(outside, join(root, "out"));
    assert.equal(refusal(guardPath(root, "out")).code, "path_outside_workspace");
    assert.equal(refusal(guardPath(root, "out/secret.txt")).code, "path_outside_workspace");
  });
});

Deno.test("guardPath() refuses a new file under a symlinked outside folder with allowMissing", async () => {
  await withRoots({}, (root, outside) => {
    symlinkSync(outside, join(root, "out"));
    for (const path of ["out/new.txt", "out/new/deeper.txt"]) {
      const result = refusal(guardPath(root, path, { allowMissing: true }));
      assert.equal(result.code, "path_outside_workspace", path);
    }
    // Same when the nested folder already exists on the far side of the link.
    mkdirSync(join(outside, "sub"));
    assert.equal(
      refusal(guardPath(root, "out/sub/new.txt", { allowMissing: true })).code,
      "path_outside_workspace",
    );
  });
});

Deno.test("guardPath() refuses a relative symlink that climbs out", async () => {
  await withRoots({ "src/.keep": "" }, (root) => {
    symlinkSync("../../outside/secret.txt", join(root, "src/leak"));
    assert.equal(refusal(guardPath(root, "src/leak")).code, "path_outside_workspace");
  });
});

Deno.test("guardPath() refuses a symlink to a sibling folder whose name extends the root's", async () => {
  await withRoots({}, (root) => {
    // A plain prefix check would take "<base>/ws-evil" to be inside "<base>/ws".
    const sibling = `${root}-evil`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, "x.txt"), "x");
    symlinkSync(sibling, join(root, "evil"));
    assert.equal(refusal(guardPath(root, "evil/x.txt")).code, "path_outside_workspace");
    assert.equal(
      refusal(guardPath(root, "evil/new.txt", { allowMissing: true })).code,
      "path_outside_workspace",
    );
  });
});

Deno.test("guardPath() allows a symlink that points inside and returns its real path", async () => {
  await withRoots({ "src/app.py": "x = 1\n" }, (root) => {
    symlinkSync("src/app.py", join(root, "alias.py"));
    symlinkSync(join(root, "src"), join(root, "srcdir"));
    const file = guardPath(root, "alias.py");
    assert.ok(file.ok);
    assert.equal(file.abs, join(root, "src/app.py"));
    assert.equal(file.rel, "alias.py");
    assert.equal(file.realRel, "src/app.py");
    const nested = guardPath(root, "srcdir/new.py", { allowMissing: true });
    assert.ok(nested.ok);
    assert.equal(nested.abs, join(root, "src/new.py"));
    assert.equal(nested.realRel, "src/new.py");
  });
});

Deno.test("guardPath() reports a broken symlink as not found, even with allowMissing", async () => {
  await withRoots({}, (root, outside) => {
    symlinkSync("nowhere.txt", join(root, "dangling"));
    // Writing through this link would create a file outside the workspace.
    symlinkSync(join(outside, "new.txt"), join(root, "dangling-out"));
    for (const path of ["dangling", "dangling-out"]) {
      for (const options of [{}, { allowMissing: true }]) {
        const result = refusal(guardPath(root, path, options));
        assert.equal(result.code, "not_found", path);
        assert.match(result.message, /is a broken symlink/);
      }
    }
  });
});

Deno.test("guardPath() refuses a new file under a broken symlinked folder", async () => {
  await withRoots({}, (root, outside) => {
    symlinkSync(join(outside, "missing-dir"), join(root, "gone"));
    assert.equal(
      refusal(guardPath(root, "gone/new.txt", { allowMissing: true })).code,
      "path_outside_workspace",
    );
  });
});

Deno.test("guardPath() refuses a FIFO as not a regular file", async () => {
  await withRoots({}, async (root) => {
    const { success } = await new Deno.Command("mkfifo", { args: [join(root, "pipe")] }).output();
    assert.ok(success, "mkfifo failed");
    const result = refusal(guardPath(root, "pipe"));
    assert.equal(result.code, "path_not_allowed");
    assert.match(result.message, /device, socket or pipe/);
  });
});

Deno.test("guardPath() refuses a symlink to a device outside the workspace", async () => {
  await withRoots({}, (root) => {
    symlinkSync("/dev/zero", join(root, "zero"));
    assert.equal(refusal(guardPath(root, "zero")).code, "path_outside_workspace");
  });
});
