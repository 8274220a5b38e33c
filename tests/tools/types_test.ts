import assert from "node:assert/strict";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import type { Task } from "../../src/task/spec.ts";
import { toolContext, touchesProtected } from "../../src/tools/types.ts";
import type { Workspace } from "../../src/workspace/workspace.ts";
import { fakeSpec } from "../_fixtures.ts";

const TASK: Task = {
  spec: fakeSpec({ limits: { max_turns: 5, command_timeout_s: 7 } }),
  dir: "/tasks/fake",
  repoDir: "/tasks/fake/repo",
  hiddenDir: "/tasks/fake/hidden",
  solutionPath: "/tasks/fake/solution.patch",
};
const WORKSPACE = { dir: "/ws/fake-1" } as Workspace;
const SANDBOX = {} as Sandbox;

Deno.test("toolContext() gives tools the visible tests, protected paths and timeout only", () => {
  const ctx = toolContext(TASK, { workspace: WORKSPACE, sandbox: SANDBOX });
  assert.deepEqual(ctx.tests, { runner: "unittest", files: ["tests/test_a.py"] });
  assert.deepEqual(ctx.protectedPaths, ["tests/"]);
  assert.equal(ctx.commandTimeoutS, 7);
  // Issue 12: tools saw the whole task, hidden tests' folder and reference patch included.
  const seen = JSON.stringify(ctx);
  for (const secret of ["hidden", "solution", "/tasks/fake", "fail_to_pass", "test_x"]) {
    assert.ok(!seen.includes(secret), `the tool context mentions "${secret}": ${seen}`);
  }
});

Deno.test("touchesProtected() checks the named path and where a symlink really leads", () => {
  const ctx = toolContext(TASK, { workspace: WORKSPACE, sandbox: SANDBOX });
  assert.equal(touchesProtected(ctx, { rel: "src/a.py", realRel: "src/a.py" }), false);
  assert.equal(touchesProtected(ctx, { rel: "tests/test_a.py", realRel: "tests/test_a.py" }), true);
  assert.equal(touchesProtected(ctx, { rel: "link.py", realRel: "tests/test_a.py" }), true);
});
