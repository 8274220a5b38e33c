import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { showCommand } from "../../src/cli/show.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import { fakeRecord } from "../trajectory/_records.ts";
import { capture } from "./_capture.ts";

const LONG_OUTPUT = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");

function records(): TrajectoryRecord[] {
  const solved = fakeRecord({
    episode: "run-1/a/0",
    group: "a",
    sample: 0,
    resolved: true,
    tokens: [],
  });
  const failed = fakeRecord({
    episode: "run-1/b/0",
    group: "b",
    sample: 0,
    resolved: false,
    tokens: [],
    overrides: {
      task_id: "b",
      turns: [{
        index: 0,
        model: {
          content: "Let me run the tests.",
          reasoning: null,
          tool_calls: null,
          finish_reason: "tool_calls",
          usage: null,
          latency_ms: 1,
          parse_errors: [],
        },
        action: "tool_call",
        tool: {
          name: "run_tests",
          arguments: {},
          ok: true,
          code: null,
          output: LONG_OUTPUT,
          truncated: false,
          duration_ms: 1,
          meta: null,
        },
        dropped_tool_calls: 0,
        tokens: null,
      }],
    },
  });
  failed.reward!.failures = [{
    id: "t.py::t",
    outcome: "failed",
    output: "AssertionError: 2 != 1",
  }];
  return [solved, failed];
}

async function withRun(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-show-" });
  try {
    writeFileSync(
      join(dir, "trajectories.jsonl"),
      records().map((r) => `${JSON.stringify(r)}\n`).join(""),
    );
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("showCommand() lists the episodes, --failed only the failed ones", async () => {
  await withRun(async (dir) => {
    const all = await capture(() => showCommand([dir]));
    assert.equal(all.code, 0);
    assert.match(all.out, /task-a\/0 +resolved/);
    assert.match(all.out, /b\/0 +unresolved/);
    const failed = await capture(() => showCommand([dir, "--failed"]));
    assert.ok(!failed.out.includes("task-a/0"));
    assert.match(failed.out, /1 episodes;/);
  });
});

Deno.test("showCommand() prints a task's episode turn by turn with the failing test output", async () => {
  await withRun(async (dir) => {
    const result = await capture(() => showCommand([dir, "--task", "b"]));
    assert.equal(result.code, 0);
    assert.match(result.out, /^== run-1\/b\/0/);
    assert.match(
      result.out,
      /--- turn 1 of 1\nmodel:\n {2}Let me run the tests\.\ncall: run_tests {}/,
    );
    assert.match(result.out, /\.\.\. 80 lines not shown \(--full shows everything\) \.\.\./);
    assert.match(result.out, /failed +t\.py::t \(fail_to_pass\)/);
    assert.match(result.out, /output of t\.py::t \(failed\):\n {2}AssertionError: 2 != 1/);
    assert.match(result.out, /--- final diff \(\)|--- final diff/);
    const full = await capture(() => showCommand([dir, "--episode", "b/0", "--full"]));
    assert.match(full.out, /line 50\n/);
  });
});

Deno.test("showCommand() suggests the closest id for a wrong task or episode", async () => {
  await withRun(async (dir) => {
    await assert.rejects(
      () => showCommand([dir, "--task", "task-b"]),
      /show: no task "task-b" in ".*"; did you mean "task-a"\?/,
    );
    await assert.rejects(
      () => showCommand([dir, "--episode", "b/1"]),
      /show: no episode "b\/1" in ".*"; did you mean "b\/0"\?/,
    );
    await assert.rejects(() => showCommand([join(dir, "nope")]), /show: ".*nope" not found/);
  });
});
