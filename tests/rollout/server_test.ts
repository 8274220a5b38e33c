import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/rollout/environment.ts";
import { EpisodeServer } from "../../src/rollout/server.ts";
import { fileURLToPath } from "node:url";

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
