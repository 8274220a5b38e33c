import assert from "node:assert/strict";
import { parseRecord, parseTrajectories } from "../../src/trajectory/record.ts";
import { fakeRecord } from "./_records.ts";

const SOLVED = fakeRecord({
  episode: "e1",
  group: "g1",
  sample: 0,
  resolved: true,
  tokens: [{ prompt_ids: [1], completion_ids: [2], logprobs: null }],
});

Deno.test("parseTrajectories() lists bad lines and ignores a cut-short last line", () => {
  const good = JSON.stringify(SOLVED);
  const parsed = parseTrajectories(
    [good, "{oops", JSON.stringify({ ...SOLVED, format: "other.v1" }), good.slice(0, 40)].join(
      "\n",
    ),
  );
  assert.equal(parsed.records.length, 1);
  assert.equal(parsed.records[0].episode_id, "e1");
  assert.ok(parsed.partial);
  assert.equal(parsed.problems.length, 2);
  assert.match(parsed.problems[0], /^line 2: not valid JSON/);
  assert.match(parsed.problems[1], /^line 3: format: must be "patchgym\.trajectory\.v1"/);
});

Deno.test("parseRecord() keeps fields the schema does not list, at any depth", () => {
  const value = {
    ...SOLVED,
    isolation_detail: { mounts: 7 },
    training: { ...SOLVED.training, drift_summary: { turns: 0 } },
    reward: {
      ...SOLVED.reward!,
      code: "ok",
      failures: [{ id: "t.py::t", outcome: "failed", output: "AssertionError" }],
    },
  };
  const parsed = parseRecord(JSON.parse(JSON.stringify(value)));
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.problems.join("\n"));
  assert.deepEqual(parsed.record, JSON.parse(JSON.stringify(value)));
});

Deno.test("parseRecord() names the field and the wrong type", () => {
  const parsed = parseRecord({ ...SOLVED, sample: "0", stop_reason: "bored" });
  assert.ok(!parsed.ok);
  assert.equal(parsed.problems.length, 2);
  assert.match(parsed.problems[0], /^sample: expected number, got a string \("0"\); fix the type/);
  assert.match(parsed.problems[1], /^stop_reason: /);
});

Deno.test("parseRecord() rejects reward.failures of the wrong shape", () => {
  const parsed = parseRecord({ ...SOLVED, reward: { ...SOLVED.reward!, failures: [{ id: 1 }] } });
  assert.ok(!parsed.ok);
  assert.match(
    parsed.problems[0],
    /^reward\.failures\[0\]\.id: expected string, got a number \(1\)/,
  );
});
