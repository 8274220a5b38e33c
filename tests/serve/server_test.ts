import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { RunSlots } from "../../src/sandbox/run_slots.ts";
import { EpisodeServer } from "../../src/serve/server.ts";
import { fileURLToPath } from "node:url";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";
import { JsonlWriter, readJsonl } from "../../src/trajectory/writer.ts";
import { Workspace } from "../../src/workspace/workspace.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));

/** A server over the bundled tasks with a fake clock, in a temp workspace root. */
async function withServer(
  options: { maxEpisodes?: number; idleTimeoutMs?: number },
  fn: (server: EpisodeServer, clock: { ms: number }, root: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-server-" });
  const clock = { ms: 0 };
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root });
  const server = new EpisodeServer(env, { ...options, now: () => clock.ms });
  try {
    await fn(server, clock, root);
  } finally {
    await server.closeAll();
    await Deno.remove(root, { recursive: true });
  }
}

function code(answer: Record<string, unknown>): unknown {
  return (answer.error as { code?: unknown } | undefined)?.code;
}

const INSPECT = {
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c", type: "function", function: { name: "inspect_tree", arguments: "{}" } }],
};

Deno.test("EpisodeServer.reapIdle() goes on past an idle episode whose removal fails, and never throws", async () => {
  // A timer calls reapIdle without waiting for it: a throw there is an unhandled rejection, which
  // ends the server and every token's episodes.
  await withServer({ idleTimeoutMs: 1000 }, async (server, clock) => {
    const reset = (id: number) =>
      server.handle(JSON.stringify({ op: "reset", id, task_id: "py-median-even" }));
    const first = (await reset(1)).episode_id as string;
    const second = (await reset(2)).episode_id as string;
    clock.ms = 1000;
    const remove = Workspace.prototype.remove;
    const failed: Workspace[] = [];
    Workspace.prototype.remove = function () {
      // The first removal fails as a workspace's could (a tree no one can remove).
      if (failed.length > 0) return remove.call(this);
      failed.push(this);
      return Promise.reject(new Error("cannot remove"));
    };
    const logged = console.error;
    console.error = () => {};
    try {
      const reaped = await server.reapIdle();
      assert.equal(reaped.length, 1);
      assert.ok([first, second].includes(reaped[0]));
      assert.equal(server.open, 0);
    } finally {
      Workspace.prototype.remove = remove;
      console.error = logged;
      for (const workspace of failed) await workspace.remove();
    }
  });
});

Deno.test("EpisodeServer.reapIdle() closes episodes idle for the timeout, not busy or fresh ones", async () => {
  await withServer({ idleTimeoutMs: 1000 }, async (server, clock, root) => {
    const reset = (id: number) =>
      server.handle(JSON.stringify({ op: "reset", id, task_id: "py-median-even" }));
    const old = (await reset(1)).episode_id as string;
    clock.ms = 600;
    const fresh = (await reset(2)).episode_id as string;
    assert.deepEqual(await server.reapIdle(), []);
    clock.ms = 1000;
    assert.deepEqual(await server.reapIdle(), [old]);
    assert.equal(server.open, 1);
    assert.equal(
      [...Deno.readDirSync(root)].filter((e) => e.name.startsWith("py-median-even-")).length,
      1,
    );
    const late = await server.handle(
      JSON.stringify({ op: "step", id: "s", episode_id: old, message: INSPECT }),
    );
    assert.equal(late.id, "s");
    assert.equal(code(late), "episode_expired");
    assert.match((late.error as { message: string }).message, /after 1 s without a request/);
    // A step keeps an episode alive; an unknown id stays unknown.
    clock.ms = 1500;
    const step = await server.handle(
      JSON.stringify({ op: "step", episode_id: fresh, message: INSPECT }),
    );
    assert.equal(step.done, false);
    clock.ms = 2400;
    assert.deepEqual(await server.reapIdle(), []);
    const unknown = await server.handle(JSON.stringify({ op: "close", episode_id: "nope" }));
    assert.equal(code(unknown), "unknown_episode");
  });
});

Deno.test("EpisodeServer.handle() expires an idle episode on its next request whatever the sweep", async () => {
  await withServer({ idleTimeoutMs: 1000 }, async (server, clock, root) => {
    const reset = await server.handle(JSON.stringify({ op: "reset", task_id: "py-median-even" }));
    const workspaces = () =>
      [...Deno.readDirSync(root)].filter((e) => e.name.startsWith("py-median-even-"));
    // A capped workspace (as root) is written in the background: a first step waits for it.
    const first = await server.handle(
      JSON.stringify({ op: "step", episode_id: reset.episode_id, message: INSPECT }),
    );
    assert.equal(code(first), undefined);
    assert.equal(workspaces().length, 1);
    clock.ms = 1000;
    const answer = await server.handle(
      JSON.stringify({ op: "step", episode_id: reset.episode_id, message: INSPECT }),
    );
    assert.equal(code(answer), "episode_expired");
    assert.equal(workspaces().length, 0);
    assert.equal(existsSync(join(root, String(reset.episode_id))), false);
  });
});

Deno.test("EpisodeServer.handle() refuses a reset past maxEpisodes and never expires with timeout 0", async () => {
  await withServer({ maxEpisodes: 2, idleTimeoutMs: 0 }, async (server, clock) => {
    const reset = (id: number) =>
      server.handle(JSON.stringify({ op: "reset", id, task_id: "py-median-even" }));
    const first = await reset(1);
    await reset(2);
    const third = await reset(3);
    assert.equal(third.id, 3);
    assert.equal(code(third), "too_many_episodes");
    clock.ms = 1e12;
    assert.deepEqual(await server.reapIdle(), []);
    await server.handle(JSON.stringify({ op: "close", episode_id: first.episode_id }));
    assert.equal(typeof (await reset(4)).episode_id, "string");
  });
});

Deno.test("EpisodeServer.handleEvent() answers an over-long line with its id", async () => {
  await withServer({}, async (server) => {
    const answer = await server.handleEvent({
      kind: "too_long",
      bytes: 9_000_000,
      head: '{"op":"step","id":"big","message":{"content":"aaaa',
    });
    assert.equal(answer.id, "big");
    assert.equal(code(answer), "line_too_long");
  });
});

const SOLUTION = Deno.readTextFileSync(`${TASKS_DIR}/py-median-even/solution.patch`);

function call(name: string, args: Record<string, unknown>) {
  return {
    role: "assistant",
    content: null,
    tool_calls: [{ id: `c_${name}`, type: "function", function: { name, arguments: args } }],
  };
}

Deno.test("EpisodeServer.request() runs a graded episode with token ids and usage into a record", async () => {
  await withServer({}, async (server) => {
    const reset = await server.request({ op: "reset", id: 1, task_id: "py-median-even" });
    assert.equal(reset.id, 1);
    assert.deepEqual(reset.task, {
      id: "py-median-even",
      title: (reset.task as { title: string }).title,
      language: "python",
      difficulty: "easy",
      kind: (reset.task as { kind: string }).kind,
      max_turns: (reset.limits as { max_turns: number }).max_turns,
    });
    const episode_id = reset.episode_id;
    const first = await server.request({
      op: "step",
      episode_id,
      message: call("apply_patch", { patch: SOLUTION }),
      tokens: { prompt_ids: [1, 2, 3], completion_ids: [4, 5], logprobs: [-0.1, -0.2] },
      usage: { prompt_tokens: 3, completion_tokens: 2 },
      finish_reason: "tool_calls",
    });
    assert.equal(first.done, false);
    assert.equal(first.reward, 0);
    assert.equal(first.terminated, false);
    assert.equal(first.truncated, false);
    assert.equal(first.stop_reason, null);
    assert.equal(first.record, undefined);
    const last = await server.request({
      op: "step",
      episode_id,
      message: call("submit", { status: "solved", summary: "fixed" }),
    });
    assert.equal(last.done, true);
    assert.equal(last.reward, 1);
    assert.equal(last.terminated, true);
    assert.equal(last.truncated, false);
    assert.equal(last.stop_reason, "submitted");
    // The same info keys before and at the end.
    assert.deepEqual(
      Object.keys(first.info as object).sort(),
      Object.keys(last.info as object).sort(),
    );
    const info = last.info as Record<string, unknown>;
    assert.equal(info.resolved, true);
    assert.deepEqual(info.submission, { status: "solved", summary: "fixed" });
    assert.ok(Object.keys((info.tests as { fail_to_pass: object }).fail_to_pass).length > 0);
    const record = last.record as TrajectoryRecord;
    assert.equal(record.episode_id, episode_id);
    assert.equal(record.stop_reason, "submitted");
    assert.deepEqual(record.turns[0].tokens, {
      prompt_ids: [1, 2, 3],
      completion_ids: [4, 5],
      logprobs: [-0.1, -0.2],
    });
    assert.deepEqual(record.usage, { prompt_tokens: 3, completion_tokens: 2 });
    // finish after the end answers the same final answer; close is idempotent.
    const again = await server.request({ op: "finish", episode_id });
    assert.equal(again.reward, 1);
    assert.deepEqual(await server.request({ op: "close", id: "c1", episode_id }), {
      id: "c1",
      closed: true,
    });
    assert.deepEqual(await server.request({ op: "close", episode_id }), { closed: true });
    assert.equal(code(await server.request({ op: "state", episode_id })), "unknown_episode");
  });
});

Deno.test("EpisodeServer.request() finish grades an episode early as truncated", async () => {
  await withServer({}, async (server) => {
    const { episode_id } = await server.request({ op: "reset", task_id: "py-median-even" });
    await server.request({
      op: "step",
      episode_id,
      message: call("apply_patch", { patch: SOLUTION }),
    });
    const state = await server.request({ op: "state", episode_id });
    assert.equal(state.step_count, 1);
    assert.equal(state.done, false);
    const finished = await server.request({ op: "finish", id: 9, episode_id });
    assert.equal(finished.id, 9);
    assert.equal(finished.done, true);
    assert.equal(finished.stop_reason, "finished");
    assert.equal(finished.truncated, true);
    assert.equal(finished.terminated, false);
    // Solved but never submitted: graded all the same.
    assert.equal((finished.info as { resolved: boolean }).resolved, true);
    assert.equal(
      code(await server.request({ op: "step", episode_id, message: INSPECT })),
      "episode_done",
    );
  });
});

Deno.test("EpisodeServer.request() picks a task by seed, lists tasks and applies reset limits", async () => {
  await withServer({}, async (server) => {
    const { tasks } = await server.request({ op: "tasks" }) as unknown as {
      tasks: { id: string }[];
    };
    const ids = tasks.map((t) => t.id);
    assert.ok(ids.includes("py-median-even"));
    assert.deepEqual(ids, [...ids].sort());
    const seeded = await server.request({ op: "reset", seed: ids.length + 2 });
    assert.equal((seeded.task as { id: string }).id, ids[2]);
    assert.equal(seeded.seed, ids.length + 2);
    // Neither task nor seed: a random seed, answered, picks the task (and replays it).
    const random = await server.request({ op: "reset" });
    assert.equal(typeof random.seed, "number");
    const replay = await server.request({ op: "reset", seed: random.seed });
    assert.equal((replay.task as { id: string }).id, (random.task as { id: string }).id);
    // A generated episode id ends in a full random UUID: it is the capability to act on it.
    assert.match(
      random.episode_id as string,
      /-\d+-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const limited = await server.request({
      op: "reset",
      task_id: "py-median-even",
      episode_id: "mine-1",
      limits: { max_turns: 1, max_total_tokens: 5000 },
      tool_calls: "text",
    });
    assert.equal(limited.episode_id, "mine-1");
    assert.deepEqual(limited.limits, {
      max_turns: 1,
      max_total_tokens: 5000,
      max_tokens_per_turn: 4096,
      max_env_s: 900,
    });
    assert.match((limited.messages as { content: string }[])[0].content, /<tool_call>/);
    assert.equal(
      code(await server.request({ op: "reset", task_id: "py-median-even", episode_id: "mine-1" })),
      "episode_exists",
    );
    const step = await server.request({ op: "step", episode_id: "mine-1", message: INSPECT });
    assert.equal(step.done, true);
    assert.equal(step.stop_reason, "max_turns");
    assert.equal(step.truncated, true);
  });
});

Deno.test("EpisodeServer.request() reads list content and vLLM's reasoning field", async () => {
  await withServer({}, async (server) => {
    const { episode_id } = await server.request({ op: "reset", task_id: "py-median-even" });
    const answer = await server.request({
      op: "step",
      episode_id,
      message: {
        role: "assistant",
        content: [{ type: "text", text: '<tool_call>{"name": "inspect_tree", ' }, {
          type: "text",
          text: '"arguments": {}}</tool_call>',
        }],
        reasoning: "look around first",
      },
    });
    assert.equal((answer.info as { tool: { name: string } }).tool.name, "inspect_tree");
    const done = await server.request({ op: "finish", episode_id });
    const turn = (done.record as TrajectoryRecord).turns[0];
    assert.equal(turn.model.reasoning, "look around first");
  });
});

Deno.test("EpisodeServer.handle() answers bad_json with the id it could read", async () => {
  await withServer({}, async (server) => {
    const answer = await server.handle('{"id": "x7", "op": "reset", oops}');
    assert.equal(answer.id, "x7");
    assert.equal(code(answer), "bad_json");
  });
});

Deno.test("EpisodeServer writes each finished episode's record to its writer", async () => {
  const out = await Deno.makeTempDir({ prefix: "patchgym-server-out-" });
  try {
    const writer = new JsonlWriter(join(out, "trajectories.jsonl"));
    const root = await Deno.makeTempDir({ prefix: "patchgym-server-" });
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root });
    const server = new EpisodeServer(env, { writer, runId: "run-x" });
    try {
      const { episode_id } = await server.request({ op: "reset", task_id: "py-median-even" });
      await server.request({ op: "step", episode_id, message: INSPECT });
      await server.request({ op: "finish", episode_id });
      await server.request({ op: "finish", episode_id });
    } finally {
      await server.closeAll();
      await writer.close();
      await Deno.remove(root, { recursive: true });
    }
    const { records } = readJsonl<TrajectoryRecord>(join(out, "trajectories.jsonl"));
    assert.equal(records.length, 1);
    assert.equal(records[0].run_id, "run-x");
    assert.equal(records[0].group_id, "run-x/py-median-even");
    assert.equal(records[0].stop_reason, "finished");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("EpisodeServer.request() tells a field of the wrong type from a missing one", async () => {
  await withServer({}, async (server) => {
    // Regression: zod keeps no input, so wrong types and missing fields read alike.
    const answer = await server.request({ op: "step", episode_id: 7, message: {} });
    assert.equal(code(answer), "bad_request");
    assert.match(
      (answer.error as { message: string }).message,
      /^episode_id: expected string, got a number \(7\); fix the type; ops are /,
    );
  });
});

Deno.test("EpisodeServer.request() refuses a step whose token ids or log-probabilities are malformed", async () => {
  // Abuse: ids and log-probabilities are checked in one loop (src/number_arrays.ts), not through
  // zod's per-element parse; negative, fractional, unsafe or non-numeric ids, non-finite or
  // non-numeric log-probabilities, and non-arrays are refused all the same, and nothing of the step
  // runs.
  await withServer({}, async (server) => {
    const { episode_id } = await server.request({ op: "reset", task_id: "py-median-even" });
    const bad = [
      { prompt_ids: [1, -2] },
      { prompt_ids: [1, 2.5] },
      { completion_ids: [Number.MAX_SAFE_INTEGER + 1] },
      { completion_ids: ["3"] },
      { prompt_ids: { length: 1, 0: 1 } },
      { logprobs: [-0.1, "x"] },
      { logprobs: [-0.1, null] },
    ];
    for (const tokens of bad) {
      const answer = await server.request({ op: "step", episode_id, message: INSPECT, tokens });
      assert.equal(code(answer), "bad_request", JSON.stringify(tokens));
      assert.match(
        (answer.error as { message: string }).message,
        /^tokens\.(prompt_ids|completion_ids|logprobs): expected an array of (token ids \(integers from 0\)|log-probabilities)/,
        JSON.stringify(tokens),
      );
    }
    const state = await server.request({ op: "state", episode_id });
    assert.equal(state.step_count, 0, JSON.stringify(state));
    // A long prompt's ids go through.
    const ids = Array.from({ length: 20_000 }, (_, i) => i);
    const ok = await server.request({
      op: "step",
      episode_id,
      message: INSPECT,
      tokens: { prompt_ids: ids, completion_ids: [1], logprobs: [-0.5] },
    });
    assert.equal(code(ok), undefined, JSON.stringify(ok).slice(0, 300));
    assert.equal((await server.request({ op: "state", episode_id })).step_count, 1);
  });
});

Deno.test("EpisodeServer.handle() keeps lone surrogates out of observations and records", async () => {
  // Attack: "\ud800" escapes, from the client's JSON or the model's own argument text, decoded to
  // lone surrogates that came back in the tool's output and the record; Python then cannot encode
  // them (a tokenizer or pyarrow fails on the whole batch).
  await withServer({}, async (server) => {
    const reset = await server.request({ op: "reset", task_id: "py-median-even" });
    const modelArguments = '{"path": "x\\ud800.py", "content": "a\\udfffb"}';
    const lines = [
      JSON.stringify({
        op: "step",
        episode_id: reset.episode_id,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{
            id: "c1",
            type: "function",
            function: { name: "write_file", arguments: modelArguments },
          }],
        },
      }),
      `{"op":"step","episode_id":${
        JSON.stringify(reset.episode_id)
      },"message":{"role":"assistant","content":"t\\ud800","reasoning":"r\\udc00","tool_calls":[{"id":"c2\\ud800","type":"function","function":{"name":"write_file","arguments":{"pa\\ud800th":"y","path":"y\\udbff.py","content":"\\ud800"}}}]}}`,
      JSON.stringify({ op: "finish", episode_id: reset.episode_id }),
    ];
    for (const line of lines) {
      const answer = await server.handle(line);
      assert.equal(answer.error, undefined, JSON.stringify(answer.error));
      const text = JSON.stringify(answer);
      // JSON.stringify writes a lone surrogate as an escape (an odd run of backslashes before it).
      assert.doesNotMatch(text, /(?<!\\)(\\\\)*\\ud[89a-f]/i, text.slice(0, 400));
      assert.ok(text.isWellFormed());
    }
  });
});

Deno.test("EpisodeServer.handle() closes an episode whose step waits for its turn without running it", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-server-" });
  const slots = new RunSlots(1, { holdMs: 3_600_000 });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, runSlots: slots });
  const server = new EpisodeServer(env, {});
  try {
    const reset = await server.handle(JSON.stringify({ op: "reset", task_id: "py-median-even" }));
    // Every run of this environment waits: another episode's run holds the one slot.
    const held = await slots.take();
    const run = {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: "r",
        type: "function",
        function: {
          name: "run_command",
          arguments: JSON.stringify({ argv: ["python3", "-c", "print('ran')"] }),
        },
      }],
    };
    const step = server.handle(
      JSON.stringify({ op: "step", episode_id: reset.episode_id, message: run }),
    );
    while (slots.waiting === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const closed = server.handle(JSON.stringify({ op: "close", episode_id: reset.episode_id }));
    // The close takes the run out of the line; then the slot is given back, and a run that
    // ignored the close would run now.
    for (let turn = 0; turn < 1000 && slots.waiting > 0; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    held();
    const answer = await step;
    const info = answer.info as { tool: { name: string; ok: boolean; code: string } };
    assert.deepEqual(
      { name: info.tool.name, ok: info.tool.ok, code: info.tool.code },
      { name: "run_command", ok: false, code: "interrupted" },
    );
    assert.deepEqual(await closed, { closed: true });
    assert.equal(server.open, 0);
  } finally {
    await server.closeAll();
    await Deno.remove(root, { recursive: true });
  }
});
