import assert from "node:assert/strict";
import { z } from "zod";
import { SandboxError } from "../../src/errors.ts";
import { Episode } from "../../src/agent/episode.ts";
import { step } from "../../src/agent/step.ts";
import { plannedTurn } from "../../src/policy/_turn.ts";
import type { Tool } from "../../src/tools/types.ts";
import { TOOLS } from "../../src/tools/registry.ts";
import { withSetup } from "../_fixtures.ts";

const BROKEN: Tool = {
  name: "broken",
  description: "Always fails to start its child, like a broken sandbox",
  input: z.object({}),
  run: () => {
    throw new SandboxError('Cannot start "pytest": boom');
  },
} as unknown as Tool;

Deno.test("step() ends the episode as environment_error when the sandbox breaks", async () => {
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const episode = new Episode(setup, { tools: [...TOOLS, BROKEN] });
    const observation = await step(episode, plannedTurn(0, [{ name: "broken", arguments: {} }]));
    assert.deepEqual(observation, []);
    assert.equal(episode.stopReason, "environment_error");
    assert.equal(episode.error?.code, "sandbox_failed");
    assert.match(episode.error?.message ?? "", /boom/);
  });
});

Deno.test("step() stops at token_limit after the turn that crossed it", async () => {
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const episode = new Episode(setup, { limits: { max_total_tokens: 100 } });
    const turn = plannedTurn(0, [{ name: "inspect_tree", arguments: {} }]);
    const observation = await step(episode, {
      ...turn,
      usage: { prompt_tokens: 90, completion_tokens: 20 },
    });
    assert.equal(observation.length, 1);
    assert.equal(episode.stopReason, "token_limit");
    assert.equal(episode.turns.length, 1);
  });
});

Deno.test("step() counts token ids for the token limit when no usage is given", async () => {
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const episode = new Episode(setup, { limits: { max_total_tokens: 1000 } });
    const turn = plannedTurn(0, [{ name: "inspect_tree", arguments: {} }]);
    await step(episode, {
      ...turn,
      tokens: { prompt_ids: new Array(900).fill(1), completion_ids: [1, 2], logprobs: null },
    });
    assert.ok(episode.contextTokens >= 902);
    assert.equal(episode.stopReason, null);
  });
});

Deno.test("step() counts the token ids a turn carries even when its usage claims fewer", async () => {
  // A trainer's usage is its own word: one that says 2 tokens while it sends 5,000 token ids
  // would keep an episode under its token limit for ever, and the server keeps every id it sends.
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const episode = new Episode(setup, { limits: { max_total_tokens: 1000 } });
    const turn = plannedTurn(0, [{ name: "inspect_tree", arguments: {} }]);
    await step(episode, {
      ...turn,
      tokens: { prompt_ids: new Array(5000).fill(1), completion_ids: [1, 2], logprobs: null },
      usage: { prompt_tokens: 1, completion_tokens: 1 },
    });
    assert.ok(episode.contextTokens >= 5002, String(episode.contextTokens));
    assert.equal(episode.stopReason, "token_limit");
  });
});

Deno.test("step() stops at time_limit on the episode's injectable wall clock", async () => {
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const clock = { ms: 0 };
    const episode = new Episode(setup, { limits: { max_wall_s: 10 }, now: () => clock.ms });
    await step(episode, plannedTurn(0, [{ name: "inspect_tree", arguments: {} }]));
    assert.equal(episode.stopReason, null);
    clock.ms = 10_000;
    await step(episode, plannedTurn(1, [{ name: "inspect_tree", arguments: {} }]));
    assert.equal(episode.stopReason, "time_limit");
  });
});

Deno.test("step() on the environment clock counts tool time only, not time between steps", async () => {
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const clock = { ms: 0 };
    const slow: Tool = {
      ...TOOLS.find((t) => t.name === "inspect_tree")!,
      name: "slow",
      run: () => {
        clock.ms += 6_000;
        return Promise.resolve({ ok: true, output: "done" });
      },
    } as Tool;
    const episode = new Episode(setup, {
      limits: { max_wall_s: 10 },
      clock: "environment",
      now: () => clock.ms,
      tools: [...TOOLS, slow],
    });
    // A long wait for the trainer's generation between steps does not count.
    clock.ms = 1_000_000;
    await step(episode, plannedTurn(0, [{ name: "slow", arguments: {} }]));
    assert.equal(episode.stopReason, null);
    assert.equal(episode.elapsedMs(), 6_000);
    await step(episode, plannedTurn(1, [{ name: "slow", arguments: {} }]));
    assert.equal(episode.stopReason, "time_limit");
  });
});
