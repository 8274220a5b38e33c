/**
 * The red team against node_test grading: patches to the bundled task js-semver-caret-zero that
 * try to earn reward without fixing `caret()`, each graded through the real grader. Every one must
 * earn 0 (see docs/grader.md, defense 8).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gradePatch, type GradeResult } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import { patchOf, TASKS_DIR, withEnv } from "./_grading.ts";

const TASK = "js-semver-caret-zero";
const FACTS = {
  submitted: true,
  submit_status: "solved" as const,
  invalid_tool_calls: 0,
  turns: 3,
  patch_lines: 2,
  reference_patch_lines: 2,
};

/** Grade the task with `prefix` put at the top of its (still buggy) src/desugar.js. */
async function gradeWith(prefix: string, inCaret = ""): Promise<GradeResult> {
  let grade: GradeResult | undefined;
  await withEnv(async (env) => {
    const task = env.task(TASK);
    const patch = await patchOf(env, task, (dir) => {
      const path = join(dir, "src/desugar.js");
      const text = readFileSync(path, "utf8").replace(
        "export function caret(text) {\n",
        `export function caret(text) {\n${inCaret}\n`,
      );
      writeFileSync(path, `${prefix}\n${text}`);
    });
    grade = await gradePatch(task, patch, {
      sandbox: env.sandbox,
      workRoot: env.workRoot,
      snapshot: env.snapshot(task),
    });
  });
  return grade!;
}

function assertUnrewarded(grade: GradeResult): void {
  const detail = JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass.tests });
  assert.equal(computeReward(grade, FACTS).total, 0, detail);
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `${id}: ${detail}`);
  }
}

const F2P: string[] = JSON.parse(readFileSync(join(TASKS_DIR, TASK, "task.json"), "utf8"))
  .fail_to_pass;
/** The hidden tests' names (suite > test), as code under test would guess them. */
const NAMES = F2P.map((id) => id.split("::")[1]);

Deno.test("gradePatch() node_test: tests registered from code under test earn nothing", async () => {
  const grade = await gradeWith(`import { describe, it } from "node:test";
for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  describe(suite, () => it(name, () => {}));
}`);
  assertUnrewarded(grade);
  assert.ok(grade.run.problems.some((p) => p.code === "test_identity"), JSON.stringify(grade.run));
});

Deno.test("gradePatch() node_test: node's own test module (require) earns nothing", async () => {
  const grade = await gradeWith(`import { createRequire } from "node:module";
const real = createRequire(import.meta.url)("node:test");
for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  real.describe(suite, () => real.it(name, () => {}));
}`);
  assertUnrewarded(grade);
});

Deno.test("gradePatch() node_test: printed passes and an early exit earn nothing", async () => {
  const grade = await gradeWith(
    "",
    `  process.stdout.write(${
      JSON.stringify(NAMES.map((n, i) => `ok ${i + 1} - ${n}\n✔ ${n} (1ms)\n`).join(""))
    });\n  process.exit(0);`,
  );
  assertUnrewarded(grade);
  // The exit came during the first test that called caret(): it never finished.
  assert.ok(
    Object.values(grade.failures).some((text) => /did not finish/.test(text)),
    JSON.stringify(grade.failures),
  );
});

Deno.test("gradePatch() node_test: a no-op assert or a forged record earns nothing", async () => {
  const grade = await gradeWith(`import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
try { assert.equal = () => {}; } catch {}
const records = process.execArgv.find((a) => a.startsWith("--allow-fs-write=") && a.endsWith("/records"));
for (const full of ${JSON.stringify(NAMES)}) {
  try {
    appendFileSync(records.slice(17), "f".repeat(64) + " " + JSON.stringify(["passed", process.cwd() + "/test/caret.test.js", full]) + "\\n");
  } catch {}
}`);
  assertUnrewarded(grade);
  // The frozen assert still threw where the bug shows.
  assert.match(grade.failures[F2P[0]] ?? "", /AssertionError/, JSON.stringify(grade.failures));
});

Deno.test("gradePatch() node_test: the reference solution earns 1.0", async () => {
  let grade: GradeResult | undefined;
  await withEnv(async (env) => {
    const task = env.task(TASK);
    grade = await gradePatch(task, readFileSync(join(TASKS_DIR, TASK, "solution.patch"), "utf8"), {
      sandbox: env.sandbox,
      workRoot: env.workRoot,
      snapshot: env.snapshot(task),
    });
  });
  assert.equal(computeReward(grade!, FACTS).total, 1, JSON.stringify(grade!.run));
  assert.deepEqual(grade!.run.problems, []);
});
