import assert from "node:assert/strict";
import { Episode } from "../../src/agent/episode.ts";
import type { Sandbox } from "../../src/sandbox/sandbox.ts";
import type { Task } from "../../src/task/spec.ts";
import type { Workspace } from "../../src/workspace/workspace.ts";
import { fakeSpec } from "../_fixtures.ts";

const TASK: Task = {
  spec: fakeSpec({ title: "Fix median", limits: { max_turns: 4, command_timeout_s: 9 } }),
  dir: "/tasks/fake",
  repoDir: "/tasks/fake/repo",
  hiddenDir: "/tasks/fake/hidden",
  solutionPath: "/tasks/fake/solution.patch",
};

function episode(): Episode {
  return new Episode({
    task: TASK,
    workspace: { dir: "/ws/fake-1" } as Workspace,
    sandbox: {} as Sandbox,
  });
}

Deno.test("Episode() keeps the task but gives its tools only the narrow view", () => {
  const e = episode();
  assert.equal(e.task, TASK);
  assert.equal(e.limits.max_turns, 4);
  assert.deepEqual(e.ctx.tests, { runner: "unittest", files: ["tests/test_a.py"] });
  assert.equal(e.ctx.commandTimeoutS, 9);
  // Issue 12: tools reached the hidden tests' folder and the reference patch through ctx.task.
  assert.equal("task" in e.ctx, false);
  assert.ok(!JSON.stringify(e.ctx).includes("/tasks/fake"));
});

Deno.test("Episode() opens with the system prompt and the task's statement and test command", () => {
  const [system, user] = episode().messages;
  assert.equal(system.role, "system");
  assert.equal(user.role, "user");
  assert.match(String(user.content), /^# Task: Fix median\n\nFix it\n\n/);
  assert.match(String(user.content), /run with: python3 -m unittest tests\.test_a$/);
});
