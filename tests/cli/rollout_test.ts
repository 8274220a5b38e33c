/** `patchgym rollout` end to end through the real entry point and its permission flags. */
import assert from "node:assert/strict";
import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  childEnv,
  jsonLines,
  launcherArgv,
  listTree,
  makeRunDir,
  makeWorkRoot,
  removeRunDir,
  removeWorkRoot,
  ROOT,
  runPatchgym,
} from "./_run.ts";
import { startFakeOpenAI } from "../_fake_openai.ts";

const REFERENCE_NOTE = "running the reference policy, which replays each task's reference patch";

function readRun(out: string) {
  const text = readFileSync(join(ROOT, out, "trajectories.jsonl"), "utf8");
  const summary = JSON.parse(readFileSync(join(ROOT, out, "summary.json"), "utf8"));
  return { text, records: jsonLines(text), summary };
}

Deno.test("rolloutCommand() groups --samples of one task and reports pass@k", async () => {
  const out = makeRunDir("samples");
  try {
    const result = await runPatchgym([
      "rollout",
      "--tasks",
      "py-median-even",
      "--samples",
      "2",
      "--concurrency",
      "2",
      "--out",
      out,
    ]);
    assert.equal(result.code, 0, result.stderr);
    const { records, summary } = readRun(out);
    assert.equal(records.length, 2);
    assert.equal(new Set(records.map((r) => r.group_id)).size, 1);
    assert.deepEqual(records.map((r) => r.sample).sort(), [0, 1]);
    assert.equal(summary.pass_at_k.k, 2);
    assert.equal(summary.complete, true);
    assert.equal(summary.ids.resolved.length, 2);
    assert.match(readFileSync(join(ROOT, out, "report.html"), "utf8"), /^<!doctype html>/);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() --resume finishes an interrupted run after a line cut short", async () => {
  const out = makeRunDir("resume");
  const tasks = ["py-median-even", "py-units-fahrenheit"];
  try {
    const first = await runPatchgym([
      "rollout",
      "--tasks",
      tasks.join(","),
      "--samples",
      "2",
      "--out",
      out,
    ]);
    assert.equal(first.code, 0, first.stderr);
    const path = join(ROOT, out, "trajectories.jsonl");
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 4);
    // Drop the last sample (the run was interrupted), then leave half a line (a crash mid-write).
    writeFileSync(path, lines.slice(0, -1).map((line) => `${line}\n`).join(""));
    appendFileSync(path, lines[3].slice(0, Math.floor(lines[3].length / 2)));

    const resumed = await runPatchgym(["rollout", "--resume", out]);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /Resuming run-\S+: 3 samples done, 1 to go/);
    const { text, records, summary } = readRun(out);
    assert.ok(text.endsWith("\n"));
    const done = records.map((r) => `${r.task_id}#${r.sample}`).sort();
    assert.deepEqual(done, tasks.flatMap((id) => [`${id}#0`, `${id}#1`]).sort());
    assert.equal(new Set(records.map((r) => r.run_id)).size, 1);
    assert.equal(summary.complete, true);
    assert.equal(summary.samples, 4);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() stops cleanly on Ctrl-C with exit 130 and resumes", async () => {
  const out = makeRunDir("sigint");
  const tasks = ["py-median-even", "py-units-fahrenheit", "py-text-ngrams"];
  try {
    // Through the launcher: it passes the Ctrl-C on to main.ts once.
    const argv = launcherArgv([
      "rollout",
      "--tasks",
      tasks.join(","),
      "--samples",
      "3",
      "--concurrency",
      "1",
      "--out",
      out,
    ]);
    const child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ROOT,
      clearEnv: true,
      env: childEnv(),
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    let interrupted = false;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      stderr += chunk.value;
      if (!interrupted && stderr.includes("[1/9]")) {
        interrupted = true;
        child.kill("SIGINT");
      }
    }
    const { code } = await child.status;
    assert.equal(code, 130, stderr);
    assert.match(
      stderr,
      /Stopped early: \d of 9 samples done; continue with: deno task patchgym rollout --resume /,
    );
    const stopped = readRun(out);
    assert.ok(
      stopped.records.length >= 1 && stopped.records.length < 9,
      `${stopped.records.length} records`,
    );
    assert.equal(stopped.summary.complete, false);

    const resumed = await runPatchgym(["rollout", "--resume", out]);
    assert.equal(resumed.code, 0, resumed.stderr);
    const { records, summary } = readRun(out);
    const done = records.map((r) => `${r.task_id}#${r.sample}`).sort();
    assert.deepEqual(
      done,
      tasks.flatMap((id) => [0, 1, 2].map((sample) => `${id}#${sample}`)).sort(),
    );
    assert.equal(summary.complete, true);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() says on stderr when it falls back to the reference policy", async () => {
  const out = makeRunDir("note");
  try {
    const result = await runPatchgym(["rollout", "--tasks", "py-median-even", "--out", out]);
    assert.equal(result.code, 0, result.stderr);
    const notes = result.stderr.split("\n").filter((line) => line.includes(REFERENCE_NOTE));
    assert.equal(notes.length, 1);
    assert.ok(!result.stdout.includes(REFERENCE_NOTE));
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() rejects bad flags with exit 2 naming the flag", async () => {
  const cases: [string[], RegExp][] = [
    [["--samples", "0"], /--samples: expected a whole number from 1/],
    [["--policy", "nope"], /--policy: expected one of reference, openai, scripted, got "nope"/],
    [["--frobnicate"], /--frobnicate/],
    [["--concurrency", "x"], /--concurrency: expected a whole number/],
  ];
  for (const [flags, message] of cases) {
    const result = await runPatchgym(["rollout", "--tasks", "py-median-even", ...flags]);
    assert.equal(result.code, 2, `${flags.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
});

Deno.test("rolloutCommand() exits 1 naming an unknown task", async () => {
  const result = await runPatchgym(["rollout", "--tasks", "no-such-task"]);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /no-such-task/);
});

Deno.test("rolloutCommand() runs a --policy scripted --script to its submit", async () => {
  const out = makeRunDir("scripted");
  try {
    const script = join(out, "script.json");
    writeFileSync(
      join(ROOT, script),
      JSON.stringify([
        { tool: "inspect_tree", arguments: {} },
        { tool: "submit", arguments: { status: "blocked", summary: "cannot fix it" } },
      ]),
    );
    const result = await runPatchgym([
      "rollout",
      "--tasks",
      "py-median-even",
      "--policy",
      "scripted",
      "--script",
      script,
      "--out",
      join(out, "run"),
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!result.stderr.includes(REFERENCE_NOTE));
    const { records } = readRun(join(out, "run"));
    assert.equal(records.length, 1);
    assert.equal(records[0].stop_reason, "submitted");
    assert.equal((records[0].reward as { total: number }).total, 0);
    assert.equal((records[0].turns as unknown[]).length, 2);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() --help prints the usage and exits 0", async () => {
  const result = await runPatchgym(["rollout", "--help"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Usage: patchgym rollout/);
  const top = await runPatchgym(["--help"]);
  assert.equal(top.code, 0, top.stderr);
  assert.match(top.stdout, /Usage: patchgym <command>/);
});

/** A port nothing listens on: bound, read, then released. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

// Issue 14: a dead endpoint gave every sample a silent reward 0 and exit 0.
Deno.test("rolloutCommand() fails fast with one line when nothing listens at --base-url", async () => {
  const out = makeRunDir("dead-endpoint");
  try {
    const port = closedPort();
    const result = await runPatchgym([
      "rollout",
      "--tasks",
      "py-median-even",
      "--base-url",
      `http://127.0.0.1:${port}/v1`,
      "--model",
      "m",
      "--out",
      join(out, "run"),
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      result.stderr.trim(),
      `Cannot use the model endpoint "http://127.0.0.1:${port}/v1": POST http://127.0.0.1:${port}/v1/chat/completions: nothing is listening at 127.0.0.1:${port}; start the model server or fix --base-url`,
    );
    assert.ok(!existsSync(join(ROOT, out, "run")), "nothing is written before the probe passes");
    const noScheme = await runPatchgym([
      "rollout",
      "--base-url",
      `127.0.0.1:${port}/v1`,
      "--model",
      "m",
    ]);
    assert.equal(noScheme.code, 2, noScheme.stderr);
    assert.match(noScheme.stderr, /has no http:\/\/ or https:\/\/ scheme; add the scheme/);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() exits 1 when every sample ends in policy_error", async () => {
  const out = makeRunDir("all-policy-errors");
  // The probe passes; the sample's request then fails for good.
  const server = startFakeOpenAI([{ content: "OK" }, {
    status: 400,
    body: { error: "context too long" },
  }]);
  try {
    const result = await runPatchgym([
      "rollout",
      "--tasks",
      "py-median-even",
      "--base-url",
      server.baseUrl,
      "--model",
      "m",
      "--out",
      out + "/run",
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /Every sample ended in policy_error \(first: .*context too long.*\); fix the endpoint, then run again with: deno task patchgym rollout --resume .* --retry-errors/,
    );
  } finally {
    await server.close();
    removeRunDir(out);
  }
});

// Issue 14: --resume crashed with a stack trace on a foreign run.json and ignored --samples.
Deno.test("rolloutCommand() --resume refuses foreign folders and saved flags, honours --samples", async () => {
  const out = makeRunDir("resume-checks");
  try {
    writeFileSync(join(ROOT, out, "run.json"), JSON.stringify({ name: "not a run" }));
    const foreign = await runPatchgym(["rollout", "--resume", out]);
    assert.equal(foreign.code, 2, foreign.stderr);
    assert.match(foreign.stderr.trim(), /^--resume: ".*run\.json" is not a patchgym run[^\n]*$/);

    const run = join(out, "run");
    const first = await runPatchgym(["rollout", "--tasks", "py-median-even", "--out", run]);
    assert.equal(first.code, 0, first.stderr);
    const saved = await runPatchgym(["rollout", "--resume", run, "--model", "m"]);
    assert.equal(saved.code, 2, saved.stderr);
    assert.match(
      saved.stderr,
      /--resume continues with the configuration saved in run\.json; drop --model/,
    );

    const more = await runPatchgym(["rollout", "--resume", run, "--samples", "2"]);
    assert.equal(more.code, 0, more.stderr);
    assert.match(more.stderr, /1 samples done, 1 to go/);
    const { records, summary } = readRun(run);
    assert.deepEqual(records.map((r) => r.sample).sort(), [0, 1]);
    assert.equal(summary.complete, true);
  } finally {
    removeRunDir(out);
  }
});

Deno.test("rolloutCommand() skips tasks whose fail_to_pass tests already pass, with a warning and a count", async () => {
  const out = makeRunDir("preflight");
  const work = makeWorkRoot("preflight");
  try {
    const tasksDir = join(work, "tasks");
    for (const id of ["py-median-even", "py-units-fahrenheit"]) {
      cpSync(join(ROOT, "tasks", id), join(tasksDir, id), { recursive: true });
    }
    // Make one fail_to_pass test of py-units-fahrenheit one that passes before any fix.
    const specPath = join(tasksDir, "py-units-fahrenheit", "task.json");
    const spec = JSON.parse(readFileSync(specPath, "utf8"));
    const passing = spec.pass_to_pass[0];
    spec.pass_to_pass = spec.pass_to_pass.slice(1);
    spec.fail_to_pass.push(passing);
    writeFileSync(specPath, JSON.stringify(spec));
    const result = await runPatchgym([
      "rollout",
      "--tasks-dir",
      tasksDir,
      "--work-dir",
      work,
      "--out",
      out,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `Skipping 1 of 2 tasks whose fail_to_pass tests already pass[^\\n]*\\n  - py-units-fahrenheit: fail_to_pass "${passing}" already passes`,
      ),
    );
    const { records, summary } = readRun(out);
    assert.deepEqual(records.map((r) => r.task_id), ["py-median-even"]);
    assert.deepEqual(summary.skipped_tasks, [
      { task_id: "py-units-fahrenheit", already_passing: [passing] },
    ]);
    assert.equal(summary.complete, true);
  } finally {
    removeRunDir(out);
    removeWorkRoot(work);
  }
});

// Issue 25: the check of the unchanged repositories showed nothing, and Ctrl-C there printed
// nothing and left a proc-<pid>-... folder with grading copies in the work root.
Deno.test("rolloutCommand() shows the task check and stops on Ctrl-C there, leaving no folder", async () => {
  const out = makeRunDir("check-sigint");
  const work = makeWorkRoot("check-sigint");
  const argv = launcherArgv(["rollout", "--out", out, "--work-dir", work, "--concurrency", "1"]);
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let stderr = "";
    let interrupted = false;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      stderr += chunk.value;
      // Interrupt once the check is under way: its first line, and a grading copy on disk.
      if (!interrupted && /Checking tasks .*: \d+ \.\.\./.test(stderr)) {
        for (let i = 0; i < 500 && !listTree(work).some((p) => p.split("/").length > 2); i++) {
          await new Promise((r) => setTimeout(r, 20));
        }
        interrupted = true;
        child.kill("SIGINT");
      }
    }
    const { code } = await child.status;
    assert.equal(code, 130, stderr);
    assert.match(stderr, /Interrupted: stopping after the task checks in flight/);
    assert.match(stderr, /Stopped before the first sample; nothing was written/);
    assert.deepEqual(listTree(work), []);
    assert.ok(!existsSync(join(ROOT, out, "run.json")), "run.json written");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await child.status;
    removeWorkRoot(work);
    removeRunDir(out);
  }
});
