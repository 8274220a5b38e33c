import assert from "node:assert/strict";
import { outcomeOf, passAtK, summarize } from "../../src/trajectory/summary.ts";
import { fakeRecord } from "./_records.ts";

Deno.test("passAtK() is the unbiased estimator and caps k at n", () => {
  assert.equal(passAtK(0, 0, 1), 0);
  assert.equal(passAtK(4, 0, 2), 0);
  assert.equal(passAtK(4, 4, 2), 1);
  assert.equal(passAtK(4, 1, 1), 0.25);
  // 1 - C(3,2)/C(4,2) = 1 - 3/6
  assert.ok(Math.abs(passAtK(4, 1, 2) - 0.5) < 1e-12);
  assert.equal(passAtK(2, 1, 5), 1);
});

const RESOLVED = fakeRecord({
  episode: "r/a/0",
  group: "a",
  sample: 0,
  resolved: true,
  tokens: [],
});
const UNRESOLVED = fakeRecord({
  episode: "r/a/1",
  group: "a",
  sample: 1,
  resolved: false,
  tokens: [],
});
const EMPTY = fakeRecord({
  episode: "r/b/0",
  group: "b",
  sample: 0,
  resolved: false,
  tokens: [],
  overrides: {
    final_diff: "",
    task: { language: "typescript", difficulty: "hard", kind: "feature", max_turns: 5 },
  },
});
const ERROR = fakeRecord({
  episode: "r/c/0",
  group: "c",
  sample: 0,
  resolved: null,
  tokens: [],
  overrides: { stop_reason: "policy_error" },
});

Deno.test("outcomeOf() puts errors first, then empty patches, then the grade", () => {
  assert.deepEqual([RESOLVED, UNRESOLVED, EMPTY, ERROR].map(outcomeOf), [
    "resolved",
    "unresolved",
    "empty_patch",
    "error",
  ]);
});

Deno.test("summarize() lists episode ids by outcome and breaks results down", () => {
  const summary = summarize([ERROR, UNRESOLVED, EMPTY, RESOLVED]);
  assert.deepEqual(summary.ids, {
    resolved: ["r/a/0"],
    unresolved: ["r/a/1"],
    error: ["r/c/0"],
    empty_patch: ["r/b/0"],
  });
  assert.deepEqual(Object.keys(summary.by_language), ["python", "typescript"]);
  assert.deepEqual(summary.by_language.python, {
    tasks: 2,
    samples: 3,
    resolved: 1,
    mean_reward: 0.333,
    pass_at_1: 0.25,
  });
  assert.equal(summary.by_difficulty.hard.samples, 1);
  assert.equal(summary.by_kind.feature.resolved, 0);
  assert.equal(summary.pass_at_k?.k, 2);
});
