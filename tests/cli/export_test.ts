import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportCommand } from "../../src/cli/export.ts";
import { UsageError } from "../../src/errors.ts";
import { TRAJECTORY_FORMAT } from "../../src/trajectory/record.ts";
import { buildTrainingView } from "../../src/trajectory/training_view.ts";
import { capture } from "./_capture.ts";

/** The fields export reads; a real record carries more, which pass through. */
function line(episode: string, resolved: boolean, tokens: boolean): string {
  return JSON.stringify({
    format: TRAJECTORY_FORMAT,
    episode_id: episode,
    task_id: "t",
    group_id: "g",
    sample: 0,
    tools: [],
    messages: [{ role: "user", content: "Fix it" }],
    reward: { total: resolved ? 1 : 0, resolved },
    training: buildTrainingView(
      tokens ? [{ prompt_ids: [1], completion_ids: [2], logprobs: null }] : [null],
    ),
  });
}

Deno.test("exportCommand() writes verl lines and warns about skipped records on stderr", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    const output = join(dir, "out.jsonl");
    writeFileSync(
      input,
      [line("a", true, true), line("b", false, true), line("c", true, false)].join("\n"),
    );
    const result = await capture(() =>
      exportCommand(["--format", "verl", "--only-successful", input, "--out", output])
    );
    assert.equal(result.code, 0);
    assert.match(
      result.out,
      /^Wrote 1 verl lines from 3 records \(2 resolved\), 1 tokens with loss to /,
    );
    assert.match(result.err, /^Skipped 1 of 2 records have no token view/);
    const rows = readFileSync(output, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((r) => [r.extra_fields.episode_id, r.prompt_ids, r.response_ids]),
      [["a", [1], [2]]],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportCommand() writes nothing and exits 1 when a record is malformed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${line("a", true, true)}\n{"format": "x"}\n${line("b", true, true)}\n`);
    const result = await capture(() =>
      exportCommand(["--format", "sft", input, "--out", join(dir, "o.jsonl")])
    );
    assert.equal(result.code, 1);
    assert.match(result.err, /line 2: format: must be/);
    await assert.rejects(() => Deno.stat(join(dir, "o.jsonl")), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportCommand() rejects a missing or unknown format and the input as output", async () => {
  await assert.rejects(
    () => exportCommand(["in.jsonl", "--out", "o.jsonl"]),
    /--format is required/,
  );
  await assert.rejects(
    () => exportCommand(["--format", "csv", "in.jsonl", "--out", "o"]),
    UsageError,
  );
  await assert.rejects(
    () => exportCommand(["--format", "sft", "in.jsonl", "--out", "in.jsonl"]),
    /--out is the input file/,
  );
});

Deno.test("exportCommand() exits 1 and writes nothing when the run has no token ids", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${line("a", true, false)}\n${line("b", false, false)}\n`);
    for (const format of ["verl", "skyrl"]) {
      const output = join(dir, `${format}.jsonl`);
      const result = await capture(() =>
        exportCommand(["--format", format, "--allow-empty", input, "--out", output])
      );
      assert.equal(result.code, 1);
      assert.match(result.err, new RegExp(`Cannot export ${format}: it needs token ids`));
      await assert.rejects(() => Deno.stat(output), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportCommand() refuses an empty batch unless --allow-empty", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    const output = join(dir, "out.jsonl");
    writeFileSync(input, `${line("a", false, true)}\n`);
    const args = ["--format", "sft", "--only-successful", input, "--out", output];
    const refused = await capture(() => exportCommand(args));
    assert.equal(refused.code, 1);
    assert.match(
      refused.err,
      /^Nothing to export: no sft rows from 1 records \(0 resolved\); nothing written \(--allow-empty writes it anyway\)/,
    );
    await assert.rejects(() => Deno.stat(output), Deno.errors.NotFound);
    const allowed = await capture(() => exportCommand([...args, "--allow-empty"]));
    assert.equal(allowed.code, 0);
    assert.equal(readFileSync(output, "utf8"), "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
