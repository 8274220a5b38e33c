import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importCommand } from "../../src/cli/import.ts";
import { UsageError } from "../../src/errors.ts";
import { capture } from "./_capture.ts";

const RECORD = {
  instance_id: "acme__calc-7",
  problem_statement: "add() subtracts instead of adding",
  FAIL_TO_PASS: '["tests/test_calc.py::test_add"]',
  PASS_TO_PASS: "[]",
  files: {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  },
  test_commands: ["pytest tests/test_calc.py"],
};

Deno.test("importCommand() imports the good records and exits 1 naming the bad line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-import-cli-" });
  try {
    const file = join(dir, "records.jsonl");
    writeFileSync(file, `${JSON.stringify(RECORD)}\nnot json\n`);
    const out = join(dir, "tasks");
    const text = await capture(() => importCommand(["swebench", file, "--out", out]));
    assert.equal(text.code, 1);
    assert.match(text.out, /^line 1: imported "acme__calc-7" -> /m);
    assert.match(text.out, /^line 2: FAILED\n {2}- not valid JSON: /m);
    assert.match(text.out, /1 imported, 1 failed/);
    assert.ok(existsSync(join(out, "acme__calc-7", "task.json")));

    // Run again as JSON: the existing folder is reported, not overwritten.
    const json = await capture(() => importCommand(["swebench", file, "--out", out, "--json"]));
    assert.equal(json.code, 1);
    const report = JSON.parse(json.out);
    assert.equal(report.imported, 0);
    assert.match(report.results[0].problems[0], /already exists/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importCommand() rejects a missing source, --out or input file as usage errors", async () => {
  await assert.rejects(() => importCommand(["records.jsonl", "--out", "x"]), UsageError);
  await assert.rejects(() => importCommand(["swebench", "records.jsonl"]), /--out DIR is required/);
  await assert.rejects(
    () => importCommand(["swebench", "/nonexistent/records.jsonl", "--out", "x"]),
    /file not found/,
  );
});

Deno.test("importCommand() imports HumanEval records with import humaneval", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-import-cli-" });
  try {
    const file = join(dir, "problems.jsonl");
    writeFileSync(
      file,
      `${
        JSON.stringify({
          task_id: "HumanEval/7",
          prompt: 'def double(x):\n    """Twice x.\n    >>> double(2)\n    4\n    """\n',
          canonical_solution: "    return 2 * x\n",
          test: "def check(candidate):\n    assert candidate(2) == 4\n",
          entry_point: "double",
        })
      }\n`,
    );
    const out = join(dir, "tasks");
    const text = await capture(() => importCommand(["humaneval", file, "--out", out]));
    assert.equal(text.code, 0);
    assert.match(text.out, /^line 1: imported "humaneval-7" -> /m);
    assert.ok(existsSync(join(out, "humaneval-7", "solution.patch")));
    await assert.rejects(
      () => importCommand(["humaneval", file, "--out", out, "--repos", dir]),
      /--repos applies to swebench records only/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
