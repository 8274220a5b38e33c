/**
 * Red-team round 8c against removing what an episode's code leaves: `flatten` walks folders by the
 * names Deno gives back, so a folder whose name is not UTF-8 hides everything under it from the
 * flattening, and the recursive removal then recurses down a chain of any depth on a thread's
 * fixed stack: the whole patchgym process aborts (every episode in it). Each test asserts the safe
 * behaviour, so it fails while the hole is open. The removal under test runs in a child process,
 * so that the abort fails the test instead of the test runner.
 */
import assert from "node:assert/strict";
import { toolContext } from "../../src/tools/types.ts";
import { mountsUnder, runPython, withSetup } from "../_fixtures.ts";

const REMOVE = new URL("../../src/workspace/remove.ts", import.meta.url).href;

/** `removeTree(dir)` (or `removeTreeSync`) in a child Deno process: its exit and stderr. */
async function removeInChild(dir: string, sync = false) {
  const code = sync
    ? `import { removeTreeSync } from ${JSON.stringify(REMOVE)}; removeTreeSync(${
      JSON.stringify(dir)
    });`
    : `import { removeTree } from ${JSON.stringify(REMOVE)}; await removeTree(${
      JSON.stringify(dir)
    });`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { ok: out.success, code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/** GNU rm walks any depth: only so that withSetup's own recursive removal does not overflow. */
async function rmrf(path: string) {
  await new Deno.Command("rm", { args: ["-rf", path], stderr: "null" }).output();
}

const DEEP_UNDER_NON_UTF8 = `import os
os.mkdir(b"\\xff"); os.chdir(b"\\xff")
for i in range(20000):
    os.mkdir("d"); os.chdir("d")
print("made")`;

for (const sync of [false, true]) {
  Deno.test(
    `a deep chain under a non-UTF-8 folder does not abort ${
      sync ? "removeTreeSync" : "removeTree"
    }`,
    async () => {
      await withSetup({ "calc.py": "def add(a, b):\n    return a - b\n" }, async (setup) => {
        const dir = setup.workspace.dir;
        try {
          const ctx = toolContext(setup.task, setup);
          // One command, a second or two: the growth check may warn, nothing stops the tree.
          const made = await runPython(ctx, DEEP_UNDER_NON_UTF8);
          assert.ok(made.ok || made.code === "workspace_too_large", JSON.stringify(made));
          const removed = await removeInChild(dir, sync);
          assert.ok(
            removed.ok,
            `the removal ended the process (exit ${removed.code}): ${removed.stderr.slice(-300)}`,
          );
          assert.equal(await Deno.lstat(dir).then(() => true, () => false), false, "left on disk");
        } finally {
          await rmrf(dir);
        }
      });
    },
  );
}

Deno.test("keeping a capped workspace with a non-UTF-8 folder leaves no mount behind", async () => {
  const { Environment } = await import("../../src/agent/environment.ts");
  const { realpathSync } = await import("node:fs");
  const tasks = new URL("../../tasks", import.meta.url).pathname;
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-env-" }));
  try {
    const env = await Environment.open({ tasksDir: tasks, workRoot: root });
    if (!env.sandbox.workspaceMount(1, 1)) {
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const workspace = env.newWorkspace(env.task("py-median-even"));
    await workspace.ready;
    // What one run_command leaves (the round 8b tests make the same name from inside the jail):
    // copyTree walks by the names Deno gives back, throws NotFound on the folder, and keep()
    // throws before it unmounts; runSample swallows the error (`keep().catch(() => {})`).
    const made = await new Deno.Command("python3", {
      args: ["-c", `import os; os.mkdir(b"\\xff"); open(b"\\xff/f", "w").write("x")`],
      cwd: workspace.dir,
    }).output();
    assert.ok(made.success);
    await workspace.keep().catch(() => {});
    assert.deepEqual(
      await mountsUnder(root),
      [],
      "keep() left the workspace's file system mounted",
    );
  } finally {
    for (const mp of await mountsUnder(root)) {
      await new Deno.Command("umount", { args: ["-l", mp], stderr: "null" }).output();
    }
    await rmrf(root);
  }
});

Deno.test("files in a non-UTF-8 folder next to a folder named U+FFFD count against the growth cap", async () => {
  await withSetup({ "a.txt": "x\n" }, async (setup) => {
    const ctx = toolContext(setup.task, setup);
    // Deno names b"\xff" "\uFFFD"; with a real folder of that name beside it, measureTree lists
    // the real one twice, finds nothing unreadable and never counts the 40 MiB: the round 8b fix
    // (unreadable names are a problem) is passed by one more mkdir.
    const made = await runPython(
      ctx,
      `import os
os.mkdir("\\ufffd"); os.mkdir(b"\\xff")
for i in range(5):
    open(b"\\xff/%d" % i, "wb").write(b"x" * (8 << 20))
print("made")`,
    );
    assert.ok(!made.ok && made.code === "workspace_too_large", JSON.stringify(made));
  });
});
