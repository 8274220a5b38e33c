/**
 * Red-team round 9 against the agent's read and inspect tools facing trees the episode's own code
 * made in the jail (through `run_command`) and the arguments the model sends with them. Each test
 * asserts the safe behaviour, so it fails while the hole is open. What is measured is the harm
 * itself where nothing can be counted: how much CPU the orchestrator's thread spent without a turn.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { executeTool } from "../../src/tools/registry.ts";
import { toolContext, type ToolLimits, type ToolResult } from "../../src/tools/types.ts";
import { runPython, withSetup } from "../_fixtures.ts";

/** GNU rm walks any depth and names by bytes. */
async function rmrf(path: string) {
  await new Deno.Command("rm", { args: ["-rf", path], stderr: "null" }).output();
}

/** CPU time of this process so far (every thread), ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The most CPU spent between two turns of the orchestrator's event loop while `work` ran: other
 * episodes' tool calls and model requests wait while its thread works. Measured in the process's
 * CPU time, not in wall time, so a loaded machine does not make it larger; what other threads
 * burn meanwhile counts too, so a test keeps them short (a worker's deadline).
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number }> {
  let last = cpuMs();
  let stallMs = 0;
  const tick = setInterval(() => {
    const now = cpuMs();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    last = cpuMs();
    const value = await work();
    stallMs = Math.max(stallMs, cpuMs() - last);
    return { value, stallMs };
  } finally {
    clearInterval(tick);
  }
}

/** The most CPU `apply_patch` may spend between two turns of the event loop, by default. */
const BAR_MS = 1000;

/**
 * `apply_patch` of `patch` in a fresh workspace of `files`, failing the test when it spent
 * `barMs` of CPU or more between two turns of the orchestrator's event loop; `check` then sees
 * its answer and the workspace's folder.
 */
async function applyWithinBar(
  files: Record<string, string>,
  patch: string,
  check: (applied: ToolResult, dir: string) => void,
  options: { barMs?: number; limits?: Partial<ToolLimits> } = {},
): Promise<void> {
  await withSetup(files, async (setup) => {
    const ctx = toolContext(setup.task, { ...setup, limits: options.limits });
    const { value: applied, stallMs } = await longestStall(() =>
      executeTool("apply_patch", { patch }, ctx)
    );
    const bar = options.barMs ?? BAR_MS;
    assert.ok(stallMs < bar, `apply_patch held the thread for ${stallMs.toFixed(0)} ms of CPU`);
    check(applied, setup.workspace.dir);
  });
}

Deno.test("a list_files glob that backtracks does not hold the orchestrator's thread", async () => {
  // globToRegExp("*a*a*a*a*b") is /(?:^|\/)[^/]*a[^/]*a[^/]*a[^/]*a[^/]*b$/: on a name of n "a"s
  // with no "b", V8's backtracking engine tries about n^5/4! ways (5 s for n = 200 here; one
  // more "*a" and it is hours). list_files tested each path on the orchestrator's own thread,
  // with no deadline: every episode of the process stood still meanwhile.
  await withSetup({ "a.txt": "x\n" }, async (setup) => {
    const dir = setup.workspace.dir;
    // A short deadline: the match may burn its worker's CPU that long, which the measure counts.
    const ctx = toolContext(setup.task, { ...setup, limits: { searchTimeoutMs: 300 } });
    try {
      const made = await runPython(ctx, `open("a" * 200, "w").close(); print("made")`);
      assert.ok(made.ok, JSON.stringify(made));
      const { value: listed, stallMs } = await longestStall(() =>
        executeTool("list_files", { glob: "*a*a*a*a*b" }, ctx)
      );
      assert.ok(stallMs < 1000, `list_files held the thread for ${stallMs.toFixed(0)} ms of CPU`);
      assert.ok(!listed.ok && listed.code === "timeout", JSON.stringify(listed));
    } finally {
      await rmrf(dir);
    }
  });
});

Deno.test("an apply_patch hunk that almost matches everywhere does not hold the orchestrator's thread", async () => {
  // A file of N equal lines and a hunk of M of the same lines then one that is not there: the
  // hunk is tried at each of the N - M places, every try comparing M lines before the one that
  // fails, exactly and then again ignoring trailing space, and the report of the failure scores
  // every place against every line of the hunk: about 5 N M comparisons on the orchestrator's
  // thread, between no two of which it gives the event loop a turn or looks at the deadline: 5 s
  // here (a 32 KB file and a 24 KB patch), 32 s for twice as many lines each; a file of 8 MB of
  // newlines (the file limit) and a 1 MB patch make it days.
  const N = 16_000;
  const M = 8_000;
  const patch = `--- a/a.txt\n+++ b/a.txt\n@@ -1,${M + 1} +1,${M} @@\n${" a\n".repeat(M)}-b\n`;
  await applyWithinBar({ "a.txt": "a\n".repeat(N) }, patch, (applied) => {
    assert.ok(!applied.ok, JSON.stringify(applied).slice(0, 300));
  });
});

Deno.test("many one-line apply_patch hunks in a long file do not hold the orchestrator's thread", async () => {
  // Each hunk was spliced into the file's array of lines, moving every line after it: hunks x
  // lines on the orchestrator's thread. 4,000 hunks (a 60 KB patch) on a 1 MB file of 500,000
  // lines took 6 s; 20,000 on a file of 4 million lines, 4 minutes; the 8 MB patch limit allows
  // 250,000 of them.
  const N = 500_000;
  const H = 4_000;
  let patch = "--- a/a.txt\n+++ b/a.txt\n";
  for (let i = 0; i < H; i++) patch += `@@ -${i * 2 + 1},0 +${i * 3 + 1},1 @@\n+x\n`;
  await applyWithinBar({ "a.txt": "a\n".repeat(N) }, patch, (applied, dir) => {
    assert.ok(applied.ok, JSON.stringify(applied).slice(0, 300));
    const text = Deno.readTextFileSync(`${dir}/a.txt`);
    assert.equal(text.length, 2 * (N + H));
  });
});

Deno.test("apply_patch hunks whose line numbers lie far from where they match hand the orchestrator's thread back", async () => {
  // The second reading of round 9: a hunk is placed at the match nearest the line it names, so
  // one that names a line past the end while it matches at its cursor is looked for from there
  // to the end of the file: hunks x lines, 3 s for 6,000 one-line hunks on 400,000 lines and
  // minutes at the patch limit, with no turn for the event loop between two hunks.
  const N = 300_000;
  const H = 4_000;
  const lines = Array.from({ length: N }, (_, i) => `line ${i}`);
  let patch = "--- a/a.txt\n+++ b/a.txt\n";
  for (let h = 0; h < H; h++) {
    const k = Math.floor((h * N) / H);
    const at = h % 2 ? 40_000_001 : k + 1;
    patch += `@@ -${at},1 +${at},1 @@\n-line ${k}\n+LINE ${k}\n`;
  }
  await applyWithinBar({ "a.txt": lines.join("\n") + "\n" }, patch, (applied, dir) => {
    assert.ok(applied.ok, JSON.stringify(applied).slice(0, 300));
    const text = Deno.readTextFileSync(`${dir}/a.txt`);
    assert.equal(text.split("\n").filter((line) => line.startsWith("LINE ")).length, H);
  });
});

Deno.test("an apply_patch header line of millions of spaces costs the orchestrator no split kept per space", async () => {
  // `diff --git a/x b/x` is split at every space and the split naming the same file twice wins;
  // every split was kept (two arrays of pairs) before one was chosen: a line of 8 million spaces
  // (within the 8 MB patch limit) held the thread 3 s and took 2 GB of the orchestrator's memory.
  const patch = `diff --git a${" ".repeat(8_000_000)}\n`;
  await applyWithinBar({ "a.txt": "x\n" }, patch, (applied) => {
    assert.ok(
      !applied.ok && applied.code !== "internal_error",
      JSON.stringify(applied).slice(0, 300),
    );
  }, { barMs: 1500 });
});

Deno.test("an apply_patch name line with a long time-like tail does not backtrack on the orchestrator's thread", async () => {
  // The date `diff -u` writes after a name was cut by /\t(?:[^\t]*\d:\d\d[^\t]*|...)$/, which
  // backtracks in the line's length squared when another tab follows the digits: 4 s for this
  // 120 KB line, hours for one of 8 MB (the patch limit), on the orchestrator's thread.
  const patch = `--- a/x\t${"1:11".repeat(30_000)}\tx\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n`;
  await applyWithinBar({ "x": "a\n" }, patch, (applied) => {
    assert.ok(applied.ok, JSON.stringify(applied).slice(0, 300));
  });
});

Deno.test("an apply_patch section line with a long run of @ does not backtrack on the orchestrator's thread", async () => {
  // The text of a Codex "@@ def f():" line was cut out with /@@+$/, which backtracks in the square
  // of a run of "@" that does not end the line: 3.6 s for this 60 KB line, a day for 8 MB.
  const patch = `*** Begin Patch\n*** Update File: x\n@@ ${
    "@".repeat(60_000)
  }x\n-a\n+b\n*** End Patch\n`;
  await applyWithinBar({ "x": "a\n" }, patch, (applied) => {
    assert.ok(
      !applied.ok && applied.code === "patch_failed",
      JSON.stringify(applied).slice(0, 300),
    );
  });
});

Deno.test("an apply_patch hunk line ending in many spaces is not trimmed once per line of the file", async () => {
  // When a hunk does not apply, the reply shows the lines it is nearest to, found by comparing it
  // with every place of the file ignoring trailing space; each comparison trimmed the hunk's line
  // again: 30,000 lines x 200 KB of spaces here (3.3 s), a day for a 2 MB file and a 6 MB patch.
  const patch = `--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-b${" ".repeat(200_000)}\n+c\n`;
  await applyWithinBar({ "a.txt": "a\n".repeat(30_000) }, patch, (applied) => {
    assert.ok(
      !applied.ok && applied.code === "patch_failed",
      JSON.stringify(applied).slice(0, 300),
    );
  });
});

Deno.test("many apply_patch section anchors that match only trimmed do not scan the file each", async () => {
  // Each Codex "@@ a" anchor was looked for exactly, then ignoring trailing space, each time to
  // the end of the file, before the trimmed match at the very next line was taken: anchors x
  // lines. 10,000 anchors (a 50 KB patch) on a 20,000-line file took 4 s; at the limits, hours.
  const patch = `*** Begin Patch\n*** Update File: a.txt\n${
    "@@ a\n".repeat(10_000)
  }- a\n+b\n*** End Patch\n`;
  await applyWithinBar({ "a.txt": " a\n".repeat(20_000) }, patch, (applied, dir) => {
    assert.ok(applied.ok, JSON.stringify(applied).slice(0, 300));
    const lines = Deno.readTextFileSync(`${dir}/a.txt`).split("\n");
    assert.equal(lines[10_000], "b");
  });
});

Deno.test("many apply_patch sections on one long file hand the orchestrator's thread back", async () => {
  // Each section rewrites the whole file (its lines split and joined again), and staging went from
  // section to section without a turn of the event loop, up to the deadline: 500 sections on a
  // file of 4 million lines held the thread the whole 20 s of the default deadline. The deadline
  // is cut to 4 s here to keep the test short.
  const patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+a\n".repeat(500);
  await applyWithinBar({ "a.txt": "a\n".repeat(200_000) }, patch, (applied) => {
    assert.ok(applied.ok || applied.code === "timeout", JSON.stringify(applied).slice(0, 300));
  }, { limits: { writeTimeoutMs: 4_000 } });
});
