/**
 * The red team against jest grading: patches to the bundled task js-jest-duration-ms-unit that try
 * to earn reward without fixing `parse()`, each graded through the real grader with the task's npm
 * environment (built here into this test's own cache). Every one must earn 0 (see docs/grader.md,
 * defense 9).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { buildNpmEnvironment } from "../../src/env/npm.ts";
import { gradePatch, type GradeResult } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import { patchOf, TASKS_DIR } from "./_grading.ts";

const TASK = "js-jest-duration-ms-unit";
const FACTS = {
  submitted: true,
  submit_status: "solved" as const,
  invalid_tool_calls: 0,
  turns: 3,
  patch_lines: 2,
  reference_patch_lines: 2,
};

const F2P: string[] = JSON.parse(readFileSync(join(TASKS_DIR, TASK, "task.json"), "utf8"))
  .fail_to_pass;
/** The hidden tests' names (describe > test), as code under test would guess them. */
const NAMES = F2P.map((id) => id.split("::")[1]);

/** Grade each patch made by `mutations` (each edits a copy of the repository) in one environment. */
async function gradeEach(
  mutations: Record<string, ((dir: string) => void) | "reference">,
): Promise<Record<string, GradeResult> | null> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-grade-jest-" });
  try {
    const envCache = join(root, "env");
    const built = await buildNpmEnvironment(join(TASKS_DIR, TASK, "repo"), {
      cacheRoot: envCache,
      lockPath: join(TASKS_DIR, TASK, "env.lock"),
    }).catch((error: Error) => error);
    if (built instanceof Error) {
      console.warn(`grade_jest_test: npm environment not built (${built.message}); skipping`);
      return null;
    }
    const env = await Environment.open({
      tasksDir: TASKS_DIR,
      workRoot: join(root, "work"),
      envCache,
    });
    const task = env.task(TASK);
    const out: Record<string, GradeResult> = {};
    for (const [name, mutate] of Object.entries(mutations)) {
      const patch = mutate === "reference"
        ? readFileSync(join(TASKS_DIR, TASK, "solution.patch"), "utf8")
        : await patchOf(env, task, mutate);
      out[name] = await gradePatch(task, patch, {
        sandbox: env.sandbox,
        workRoot: env.workRoot,
        snapshot: env.snapshot(task),
        environment: env.environment(task) ?? undefined,
      });
    }
    return out;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A mutation that puts `prefix` at the top of src/parse.js and `inParse` first in parse(). */
function parseWith(prefix: string, inParse = ""): (dir: string) => void {
  return (dir) => {
    const path = join(dir, "src/parse.js");
    const text = readFileSync(path, "utf8").replace(
      "function parse(text) {\n",
      `function parse(text) {\n${inParse}\n`,
    );
    writeFileSync(path, `${prefix}\n${text}`);
  };
}

function assertUnrewarded(name: string, grade: GradeResult): void {
  const detail = `${name}: ${JSON.stringify({ run: grade.run, f2p: grade.fail_to_pass.tests })}`;
  assert.equal(computeReward(grade, FACTS).total, 0, detail);
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `${id}: ${detail}`);
  }
}

Deno.test("gradePatch() jest: attacks earn nothing, the reference solution earns 1.0", async () => {
  const grades = await gradeEach({
    registered: parseWith(`for (const full of ${JSON.stringify(NAMES)}) {
  const [suite, name] = full.split(" > ");
  describe(suite, () => test(name, () => {}));
}`),
    printedAndExit: parseWith(
      "",
      `  process.stdout.write(${
        JSON.stringify(
          NAMES.map((n) => `PASS test/milliseconds.test.js\n  ✓ ${n} (1 ms)\n`).join(""),
        )
      });\n  process.exit(0);`,
    ),
    expectPatched: parseWith(
      `try { globalThis.expect = () => ({ toBe() {}, toThrow() {} }); } catch {}
try { expect.extend({ toBe: () => ({ pass: true, message: () => "" }) }); } catch {}
try { Object.is = () => true; } catch {}`,
    ),
    forged: parseWith(`const fs = require("fs");
const path = require("path");
const records = path.join(path.dirname(path.dirname(process.argv[1])), "records");
for (const full of ${JSON.stringify(NAMES)}) {
  try {
    fs.appendFileSync(records, "f".repeat(64) + " " + JSON.stringify(["passed", process.cwd() + "/test/milliseconds.test.js", full]) + "\\n");
  } catch {}
}`),
    reference: "reference",
  });
  if (grades === null) return;
  for (const name of ["registered", "printedAndExit", "expectPatched", "forged"]) {
    assertUnrewarded(name, grades[name]);
  }
  assert.ok(
    grades.registered.run.problems.some((p) => p.code === "test_identity"),
    JSON.stringify(grades.registered.run),
  );
  // The locked expect still threw where the bug shows (failed, not stopped), and the failure
  // shown is the test's own (jest's frames left out).
  assert.match(grades.expectPatched.failures[F2P[0]] ?? "", /milliseconds\.test\.js:5:/);
  assert.doesNotMatch(grades.expectPatched.failures[F2P[0]] ?? "", /jest-circus/);
  assert.equal(
    grades.expectPatched.fail_to_pass.tests[F2P[0]],
    "failed",
    JSON.stringify(grades.expectPatched.fail_to_pass),
  );
  assert.equal(
    computeReward(grades.reference, FACTS).total,
    1,
    JSON.stringify(grades.reference.run),
  );
  assert.deepEqual(grades.reference.run.problems, []);
});
