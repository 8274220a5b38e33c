import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { containedFixes, referenceFixes } from "../../src/synth/decontaminate.ts";
import { synthesize } from "../../src/synth/synth.ts";
import { loadTask, loadTasks } from "../../src/task/load.ts";
import { snapshotDir } from "../../src/workspace/snapshot.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
const SEED = "py-median-even";

function repoTexts(dir: string): Map<string, string> {
  return new Map(
    snapshotDir(dir).files.map((f) => [f.path, new TextDecoder().decode(f.content)]),
  );
}

Deno.test("containedFixes() finds a reference fix in a repository that has it, and not before", () => {
  const task = loadTask(join(TASKS_DIR, SEED));
  const fixes = referenceFixes([task]);
  const before = repoTexts(task.repoDir);
  assert.deepEqual(containedFixes(before, fixes), []);
  const after = new Map(before);
  const summary = after.get("stats/summary.py")!.replace(
    "    return ordered[middle]\n",
    "    if len(ordered) % 2 == 0:\n        return (ordered[middle - 1] + ordered[middle]) / 2\n    return ordered[middle]\n",
  );
  after.set("stats/summary.py", summary);
  assert.deepEqual(containedFixes(after, fixes), [SEED]);
});

// Issue 30: synth with the bundled seeds wrote tasks whose repositories held the curated tasks'
// reference fixes (20 of 20 from one seed), leaking the curated solutions into training data.
Deno.test("synthesize() writes no task whose repository holds a curated task's reference fix", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-decontaminate-" });
  try {
    const sandbox = new Sandbox({ isolation: await probeIsolation() });
    const curated = loadTasks(TASKS_DIR);
    const fixes = referenceFixes(curated);
    const seed = loadTask(join(TASKS_DIR, SEED));
    const common = {
      sandbox,
      workRoot: root,
      perSeed: 8,
      multiPerSeed: 0,
      curated,
    };
    // With the fix applied, mutants that leave it intact are refused as contaminated.
    const applied = await synthesize([seed], {
      ...common,
      outDir: join(root, "applied"),
      applyReference: true,
    });
    assert.ok(applied.dropped.contaminated > 0, JSON.stringify(applied.dropped));
    // By default the seed is mutated as it is: its fix is in no repository.
    const plain = await synthesize([seed], { ...common, outDir: join(root, "plain") });
    assert.ok(plain.written.length > 0, JSON.stringify(plain));
    for (const report of [applied, plain]) {
      for (const id of report.written) {
        const dir = join(root, report === applied ? "applied" : "plain", id);
        assert.deepEqual(containedFixes(repoTexts(join(dir, "repo")), fixes), [], id);
        const spec = JSON.parse(readFileSync(join(dir, "task.json"), "utf8"));
        assert.equal(spec.provenance.made_by, "synth");
      }
    }
    assert.ok(readdirSync(join(root, "plain")).length >= plain.written.length);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
