/**
 * Red-team round 8d against the walks over what an episode's code leaves. `reopenTree` pushes
 * `join(path, entry.name)` for every folder it lists; Deno gives a name that is not UTF-8 back
 * with U+FFFD, so a folder b"a\xff" beside a real folder "a\uFFFD" makes the latter be walked
 * twice, and a chain of such pairs doubles the walk at every level: 2^depth visits. The growth
 * check runs reopenTree whenever it meets an unreadable name (as it always does here), so one
 * run_command making 40 levels (80 folders, far under the entry cap) hangs the episode's tool
 * call in the orchestrator, spinning on the disk. Each test asserts the safe behaviour, so it
 * fails while the hole is open; it counts visits instead of timing them.
 */
import assert from "node:assert/strict";
import { toolContext } from "../../src/tools/types.ts";
import { runPython, withSetup } from "../_fixtures.ts";

/** GNU rm walks any depth and names by bytes. */
async function rmrf(path: string) {
  await new Deno.Command("rm", { args: ["-rf", path], stderr: "null" }).output();
}

/** Levels of the chain: small, so the test ends while the hole is open (2^12 visits). */
const LEVELS = 12;

const DOUBLING_CHAIN = `import os
for i in range(${LEVELS}):
    os.mkdir(b"a\\xff"); os.mkdir("a\\ufffd".encode()); os.chdir("a\\ufffd".encode())
print("made")`;

Deno.test("a chain of non-UTF-8 folders beside U+FFFD folders does not make the growth check walk a folder more than once", async () => {
  await withSetup({ "a.txt": "x\n" }, async (setup) => {
    const dir = setup.workspace.dir;
    const ctx = toolContext(setup.task, setup);
    // Count the asynchronous listings of each folder of the workspace (reopenTree's).
    const original = Deno.readDir;
    const listed = new Map<string, number>();
    (Deno as unknown as { readDir: typeof Deno.readDir }).readDir = (path) => {
      const p = String(path);
      if (p.startsWith(dir)) listed.set(p, (listed.get(p) ?? 0) + 1);
      return original(path);
    };
    try {
      const made = await runPython(ctx, DOUBLING_CHAIN);
      // The growth check answers (unreadable names); the point is how long it walked first.
      assert.ok(!made.ok && made.code === "workspace_too_large", JSON.stringify(made));
      const most = Math.max(0, ...listed.values());
      const total = [...listed.values()].reduce((a, b) => a + b, 0);
      // 2 * LEVELS + 1 folders; each listed at most a couple of times. While the hole is open
      // the deepest is listed 2^LEVELS times (4096), 2^(LEVELS+1)-1 listings in all: at 40
      // levels, 2^41 listings, days of work for one tool call.
      assert.ok(
        most <= 2,
        `a folder was listed ${most} times (${total} listings for ${2 * LEVELS + 1} folders)`,
      );
    } finally {
      (Deno as unknown as { readDir: typeof Deno.readDir }).readDir = original;
      await rmrf(dir);
    }
  });
});

Deno.test("the same chain does not make keep()'s clearing of special modes walk a folder more than once", async () => {
  const { clearSpecialModes } = await import("../../src/workspace/workspace.ts");
  const dir = await Deno.makeTempDir({ prefix: "patchgym-rt8d-" });
  const original = Deno.readDir;
  const listed = new Map<string, number>();
  try {
    const made = await new Deno.Command("python3", {
      args: ["-c", DOUBLING_CHAIN],
      cwd: dir,
      stdout: "null",
    }).output();
    assert.ok(made.success);
    (Deno as unknown as { readDir: typeof Deno.readDir }).readDir = (path) => {
      const p = String(path);
      if (p.startsWith(dir)) listed.set(p, (listed.get(p) ?? 0) + 1);
      return original(path);
    };
    await clearSpecialModes(dir);
    const most = Math.max(0, ...listed.values());
    assert.ok(most <= 2, `a folder was listed ${most} times`);
  } finally {
    (Deno as unknown as { readDir: typeof Deno.readDir }).readDir = original;
    await rmrf(dir);
  }
});
