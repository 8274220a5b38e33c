/**
 * The fairness corpus (see `_corpus.ts`): correct solutions written in styles the references do
 * not use, each graded through the real grader on a bundled task; every one must earn 1.0. (Issue
 * 27: 4 of 21 honest solutions once earned 0, for `inspect.signature` on a test's callback and for
 * `traceback.format_stack()`.)
 */
import assert from "node:assert/strict";
import { computeReward } from "../../src/reward/reward.ts";
import { FACTS, FAIRNESS_CORPUS, gradeHandwrittenIn, gradeStyled, HANDWRITTEN } from "./_corpus.ts";
import { withEnv } from "./_grading.ts";

for (const [taskId, style] of FAIRNESS_CORPUS) {
  Deno.test(`gradePatch() gives full reward to a correct ${style} solution of ${taskId}`, async () => {
    assert.equal(await gradeStyled(taskId, style), 1);
  });
}

for (const solution of HANDWRITTEN) {
  Deno.test(`gradePatch() gives full reward to ${solution.name} (${solution.task})`, async () => {
    await withEnv(async (env) => {
      const grade = await gradeHandwrittenIn(env, solution);
      assert.equal(
        computeReward(grade, FACTS).total,
        1,
        JSON.stringify({ run: grade.run, failures: grade.failures }).slice(0, 3000),
      );
    });
  });
}
