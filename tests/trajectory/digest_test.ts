import assert from "node:assert/strict";
import {
  cut,
  digestRecord,
  recordLine,
  REPORT_DIFF_LIMIT,
  REPORT_TEXT_LIMIT,
  viewOf,
} from "../../src/trajectory/digest.ts";
import { parseRecord } from "../../src/trajectory/record.ts";
import { fakeRecord, fakeTurn } from "./_records.ts";

Deno.test("digestRecord() keeps what the summary counts and drops the conversation and its tokens", () => {
  const tokens = Array.from({ length: 4 }, (_, i) => ({
    prompt_ids: Array.from({ length: 5_000 * (i + 1) }, (_, j) => j % 1000),
    completion_ids: Array.from({ length: 5_000 }, (_, j) => j % 1000),
    logprobs: Array.from({ length: 5_000 }, () => -0.25),
  }));
  const record = fakeRecord({
    episode: "run-1/a/0",
    group: "a",
    sample: 0,
    resolved: true,
    tokens,
    overrides: {
      turns: [
        fakeTurn(0, "read_file", { path: "m.py" }, "x".repeat(1_000_000), "reading"),
        fakeTurn(1, "read_file", { path: "m.py" }, "short", "reading"),
      ],
      final_diff: "+y\n".repeat(100_000),
    },
  });
  record.reward!.components.integrity = ["canary_mismatch"];
  assert.ok(parseRecord(JSON.parse(JSON.stringify(record))).ok, "the record is valid");
  const digest = digestRecord(record);
  assert.equal(digest.episode_id, "run-1/a/0");
  assert.equal(digest.outcome, "resolved");
  assert.deepEqual(digest.integrity, ["canary_mismatch"]);
  assert.equal(digest.impossible, false);
  assert.equal(digest.turns.length, 2);
  assert.equal(digest.tokens, true);
  assert.equal(
    digest.trainable_tokens,
    record.training.segments.reduce((n, s) => n + s.loss_mask.filter((x) => x === 1).length, 0),
  );
  assert.ok(digest.trainable_tokens >= 20_000, String(digest.trainable_tokens));
  // Long texts are cut to the report's limits; no message, token id or log-probability is kept.
  const bytes = JSON.stringify(digest).length;
  // (the diff's newlines are two characters each in JSON)
  assert.ok(bytes < 2 * (REPORT_DIFF_LIMIT + 4 * REPORT_TEXT_LIMIT), `${bytes} bytes`);
  assert.ok(JSON.stringify(record).length > 10 * bytes);
  assert.ok(!("messages" in digest) && !("training" in digest));
  assert.ok((digest.turns[0].tool?.output.length ?? 0) < REPORT_TEXT_LIMIT + 100);
});

Deno.test("digestRecord() tells an ungraded sample, an impossible one and a record from before integrity codes", () => {
  const ungraded = fakeRecord({ episode: "e", group: "g", sample: 0, resolved: null, tokens: [] });
  assert.equal(digestRecord(ungraded).integrity, null);
  assert.equal(digestRecord(ungraded).outcome, "error");
  const old = fakeRecord({ episode: "e", group: "g", sample: 0, resolved: true, tokens: [null] });
  delete (old.reward!.components as { integrity?: string[] }).integrity;
  assert.deepEqual(digestRecord(old).integrity, []);
  assert.equal(digestRecord(old).tokens, false);
  assert.equal(digestRecord(old).trainable_tokens, 0);
  const impossible = fakeRecord({
    episode: "e",
    group: "g",
    sample: 0,
    resolved: false,
    tokens: [],
  });
  impossible.reward!.impossible = true;
  assert.equal(digestRecord(impossible).impossible, true);
});

Deno.test("recordLine() is the record's JSON as a one-thread run writes it, and viewOf() the report's part", () => {
  const record = fakeRecord({ episode: "e", group: "g", sample: 3, resolved: false, tokens: [] });
  const { line, digest } = recordLine(record);
  assert.equal(line, JSON.stringify(record));
  // The report embeds what it embedded when it was made from records: these fields, in order.
  const view = viewOf(digest);
  assert.deepEqual(Object.keys(view), [
    "episode_id",
    "task_id",
    "sample",
    "language",
    "difficulty",
    "kind",
    "outcome",
    "stop_reason",
    "error",
    "submission",
    "statement",
    "final_diff",
    "reward",
    "drift",
    "tokens",
    "usage",
    "wall_ms",
    "turns",
  ]);
  assert.equal(view.sample, 3);
  assert.equal(view.statement, "Fix e");
});

Deno.test("cut() keeps head and tail and says how much went", () => {
  assert.equal(cut("abc", 5), "abc");
  const text = cut("x".repeat(50) + "y".repeat(50), 20);
  assert.match(text, /^x{14}\n\[\.\.\. 80 characters cut \.\.\.\]\ny{6}$/);
});
