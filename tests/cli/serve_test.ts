/** `patchgym serve --stdio` end to end: the README client, and the JSON-lines protocol directly. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { patchgymArgv, ROOT, runArgv, ServeProcess } from "./_run.ts";

const SOLUTION = readFileSync(join(ROOT, "tasks/py-median-even/solution.patch"), "utf8");

function step(id: string, episodeId: unknown, name: string, args: Record<string, unknown>) {
  return {
    op: "step",
    id,
    episode_id: episodeId,
    message: {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: `call_${id}`,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      }],
    },
  };
}

function errorCode(answer: Record<string, unknown> | undefined): unknown {
  return (answer?.error as { code?: unknown } | undefined)?.code;
}

Deno.test("serveCommand() drives the README client to reward 1", async () => {
  const result = await runArgv([
    "python3",
    "examples/serve_client.py",
    "--task",
    "py-median-even",
    "--patch",
    "tasks/py-median-even/solution.patch",
    "--",
    ...patchgymArgv(["serve", "--stdio"]),
  ]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /reward=1\b/);
  assert.match(result.stdout, /stop=submitted/);
});

Deno.test("serveCommand() answers bad lines with error codes and keeps serving", async () => {
  const server = new ServeProcess();
  try {
    const unknownOp = await server.request({ op: "nope", id: 1 });
    assert.equal(unknownOp.id, 1);
    assert.equal(errorCode(unknownOp), "bad_request");
    await server.send("{not json");
    assert.equal(errorCode(await server.next() ?? undefined), "bad_json");
    const unknownEpisode = await server.request(step("s1", "no-such-episode", "inspect_tree", {}));
    assert.equal(unknownEpisode.id, "s1");
    assert.equal(errorCode(unknownEpisode), "unknown_episode");
    const unknownTask = await server.request({ op: "reset", id: "r1", task_id: "no-such-task" });
    assert.equal(unknownTask.id, "r1");
    assert.equal(errorCode(unknownTask), "unknown_task");
    assert.match((unknownTask.error as { message: string }).message, /no-such-task/);
    // Still answering after every error.
    const reset = await server.request({ op: "reset", id: 7, task_id: "py-median-even", seed: 0 });
    assert.equal(reset.id, 7);
    assert.equal(typeof reset.episode_id, "string");
    assert.ok(Array.isArray(reset.messages) && Array.isArray(reset.tools));
    const { code, answers } = await server.finish();
    assert.equal(code, 0);
    assert.deepEqual(answers, []);
  } finally {
    await server.kill();
  }
});

Deno.test("serveCommand() runs two interleaved episodes and refuses a step after done", async () => {
  const server = new ServeProcess();
  try {
    await server.send({ op: "reset", id: "a", task_id: "py-median-even", seed: 0 });
    await server.send({ op: "reset", id: "b", task_id: "py-median-even", seed: 1 });
    const resets = [await server.next(), await server.next()];
    const episode = Object.fromEntries(resets.map((r) => [r?.id, r?.episode_id]));
    assert.equal(typeof episode.a, "string");
    assert.equal(typeof episode.b, "string");
    assert.notEqual(episode.a, episode.b);

    const requests = [
      step("a1", episode.a, "inspect_tree", {}),
      step("b1", episode.b, "inspect_tree", {}),
      step("a2", episode.a, "apply_patch", { patch: SOLUTION }),
      step("b2", episode.b, "submit", { status: "blocked", summary: "giving up" }),
      step("a3", episode.a, "submit", { status: "solved", summary: "fixed the even case" }),
      step("b3", episode.b, "inspect_tree", {}),
      { op: "close", id: "c", episode_id: episode.a },
    ];
    for (const request of requests) await server.send(request);
    const { code, answers } = await server.finish();
    assert.equal(code, 0);
    const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
    assert.deepEqual(Object.keys(byId).sort(), ["a1", "a2", "a3", "b1", "b2", "b3", "c"]);
    for (const id of ["a1", "a2", "b1"]) {
      assert.equal(byId[id].done, false, `${id}: ${JSON.stringify(byId[id])}`);
      assert.equal((byId[id].info as { tool: { ok: boolean } }).tool.ok, true, id);
    }
    assert.equal(byId.a3.done, true);
    assert.equal(byId.a3.reward, 1);
    assert.equal((byId.a3.info as { stop_reason: string }).stop_reason, "submitted");
    assert.equal(byId.b2.done, true);
    assert.equal(byId.b2.reward, 0);
    assert.equal(errorCode(byId.b3), "episode_done");
    assert.equal(byId.c.closed, true);
  } finally {
    await server.kill();
  }
});
