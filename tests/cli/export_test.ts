import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportCommand } from "../../src/cli/export.ts";
import { UsageError } from "../../src/errors.ts";
import { parquetReadObjects } from "hyparquet";
import { fakeRecord, TOOLS } from "../trajectory/_records.ts";
import { capture } from "./_capture.ts";

/** One valid record as a JSON line. */
function line(episode: string, resolved: boolean, tokens: boolean): string {
  return JSON.stringify(fakeRecord({
    episode,
    group: "g",
    sample: 0,
    resolved,
    tokens: [tokens ? { prompt_ids: [1], completion_ids: [2], logprobs: null } : null],
  }));
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

// Issue 14: one bad line made export write nothing, with a wrong count.
Deno.test("exportCommand() exports the good lines, names each bad line and exits 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${line("a", true, true)}\n{"format": "x"}\n${line("b", true, true)}\n`);
    const result = await capture(() =>
      exportCommand(["--format", "sft", input, "--out", join(dir, "o.jsonl")])
    );
    assert.equal(result.code, 1);
    assert.match(result.out, /^Wrote 2 sft lines from 2 records to /);
    assert.match(
      result.err,
      /Skipped 1 bad lines of ".*" \(lines 2\):\n {2}line 2: format: must be/,
    );
    assert.equal(readFileSync(join(dir, "o.jsonl"), "utf8").trimEnd().split("\n").length, 2);
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

Deno.test("exportCommand() --out - writes the lines to stdout and the count to stderr", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    writeFileSync(input, `${line("a", true, true)}\n`);
    const result = await capture(() => exportCommand(["--format", "sft", input, "--out", "-"]));
    assert.equal(result.code, 0);
    assert.match(result.err, /^Wrote 1 sft lines from 1 records to stdout/);
    assert.deepEqual(Object.keys(JSON.parse(result.out)), ["messages", "tools"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Issue 14: a folder as input ended in a stack trace.
Deno.test("exportCommand() names a folder given as input", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    await assert.rejects(
      () => exportCommand(["--format", "sft", dir, "--out", join(dir, "o.jsonl")]),
      /export: cannot read ".*": it is a folder; name a file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportCommand() reads a run folder's trajectories.jsonl", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    writeFileSync(join(dir, "trajectories.jsonl"), `${line("a", true, true)}\n`);
    const result = await capture(() =>
      exportCommand(["--format", "sft", dir, "--out", join(dir, "o.jsonl")])
    );
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^Wrote 1 sft lines from 1 records/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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

Deno.test("exportCommand() writes sft as Parquet when --out ends in .parquet", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    const output = join(dir, "sft.parquet");
    writeFileSync(input, [line("a", true, false), line("b", false, false)].join("\n"));
    const result = await capture(() => exportCommand(["--format", "sft", input, "--out", output]));
    assert.equal(result.code, 0, result.err);
    assert.match(result.out, /^Wrote 2 sft rows from 2 records to .*sft\.parquet \(Parquet\)/);
    const rows = await parquetReadObjects({ file: readFileSync(output).buffer });
    assert.deepEqual(rows.map((r) => (r.messages as { content: string }[])[1].content), [
      "Fix a",
      "Fix b",
    ]);
    assert.deepEqual(JSON.parse(rows[0].tools as string), TOOLS);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exportCommand() refuses Parquet for token formats and for object arguments", async () => {
  for (
    const [args, message] of [
      [["--format", "verl"], /Parquet output is for --format sft .*; write verl as JSONL/],
      [["--format", "sft", "--arguments", "object"], /--arguments object cannot go to Parquet/],
    ] as const
  ) {
    await assert.rejects(
      () => exportCommand([...args, "in.jsonl", "--out", "out.parquet"]),
      (error: Error) => error instanceof UsageError && message.test(error.message),
    );
  }
  await assert.rejects(
    () => exportCommand(["--format", "verl", "--arguments", "object", "in.jsonl", "--out", "o"]),
    /--arguments applies to --format sft only/,
  );
});

Deno.test("exportCommand() --arguments object parses tool-call arguments in sft lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-export-cli-" });
  try {
    const input = join(dir, "in.jsonl");
    writeFileSync(input, line("a", true, false));
    const result = await capture(() =>
      exportCommand(["--format", "sft", "--arguments", "object", input, "--out", "-"])
    );
    assert.equal(result.code, 0, result.err);
    const row = JSON.parse(result.out);
    assert.deepEqual(row.messages[2].tool_calls[0].function.arguments, { status: "solved" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
