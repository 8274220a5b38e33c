/** The smaller commands (`tasks`, `score`, `validate`, `doctor`) and dispatch, through the real entry point. */
import { queueKey } from "../../src/rollout/signing.ts";
import assert from "node:assert/strict";
import { JOB_FORMAT, JobQueue } from "../../src/rollout/queue.ts";
import { HAS_REDIS, startRedis } from "../_redis.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startQwen3Server } from "../_qwen3_server.ts";
import { makeRunDir, removeRunDir, ROOT, runPatchgym } from "./_run.ts";
import { LANGUAGES } from "../../src/task/spec.ts";

Deno.test("tasksCommand() --json lists the bundled tasks with their metadata", async () => {
  const result = await runPatchgym(["tasks", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
  assert.ok(rows.length >= 3, `only ${rows.length} tasks`);
  for (const row of rows) {
    assert.equal(typeof row.id, "string");
    assert.ok(
      (LANGUAGES as readonly string[]).includes(row.language as string),
      `${row.id}: language ${row.language}`,
    );
    assert.equal(typeof row.difficulty, "string", `${row.id}: difficulty`);
    assert.equal(typeof row.kind, "string", `${row.id}: kind`);
    assert.ok(
      Number.isInteger(row.max_turns) && (row.max_turns as number) > 0,
      `${row.id}: max_turns`,
    );
  }
  assert.ok(rows.some((row) => row.id === "py-median-even"));
});

Deno.test("scoreCommand() gives the reference patch reward 1 and an empty patch reward 0", async () => {
  const dir = makeRunDir("score");
  try {
    const solved = await runPatchgym([
      "score",
      "--task",
      "py-median-even",
      "--patch",
      "tasks/py-median-even/solution.patch",
      "--json",
    ]);
    assert.equal(solved.code, 0, solved.stderr);
    const good = JSON.parse(solved.stdout);
    assert.equal(good.task_id, "py-median-even");
    assert.equal(good.reward.total, 1);
    assert.equal(good.reward.resolved, true);

    const empty = join(dir, "empty.patch");
    writeFileSync(join(ROOT, empty), "");
    const unsolved = await runPatchgym([
      "score",
      "--task",
      "py-median-even",
      "--patch",
      empty,
      "--json",
    ]);
    assert.equal(unsolved.code, 0, unsolved.stderr);
    const bad = JSON.parse(unsolved.stdout);
    assert.equal(bad.reward.total, 0);
    assert.equal(bad.reward.resolved, false);
  } finally {
    removeRunDir(dir);
  }
});

Deno.test("scoreCommand() reads the patch from stdin with --patch -", async () => {
  const solution = Deno.readTextFileSync(join(ROOT, "tasks/py-median-even/solution.patch"));
  const result = await runPatchgym(
    ["score", "--task", "py-median-even", "--patch", "-", "--json"],
    { stdin: solution },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout).reward.total, 1);
});

Deno.test("validateCommand() --json reports a sound task as ok", async () => {
  const result = await runPatchgym(["validate", "--tasks", "py-median-even", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.ok, true);
  assert.equal(report.tasks, 1);
  assert.equal(report.results[0].task_id, "py-median-even");
});

Deno.test("doctorCommand() --json reports isolation, runners and no broad permission", async () => {
  const result = await runPatchgym(["doctor", "--json"]);
  const report = JSON.parse(result.stdout);
  assert.equal(
    result.code,
    report.problems.some((p: string) => !p.startsWith("no bwrap")) ? 1 : 0,
    result.stderr,
  );
  assert.ok(["bwrap", "process"].includes(report.isolation), `isolation ${report.isolation}`);
  if (report.isolation === "bwrap") {
    // main.ts, under its narrow flags, checked the programs folder launch.ts names and binds it.
    assert.ok(
      report.mounts.some((m: string) => m.includes("(programs folder: ")),
      report.mounts.join("\n"),
    );
  }
  assert.match(report.runners.python3, /^Python 3\./);
  // A real run says whether Python test runs fork from the warm interpreter here, and if not why.
  const eligible = report.isolation === "bwrap" && report.sandbox.uid === "sandbox_user" &&
    report.guarantees.holds.some((h: string) => h.includes("compiled launcher"));
  assert.equal(report.python_runs.warm, eligible, report.python_runs.detail);
  assert.match(
    report.python_runs.detail,
    eligible ? /^forked from the warm interpreter/ : /^started in their jails \(/,
  );
  // Two real commands say whether the second one's jail was made ahead here (bwrap, the launcher).
  const aheadable = report.isolation === "bwrap" &&
    report.guarantees.holds.some((h: string) => h.includes("compiled launcher"));
  assert.equal(report.command_jails.ahead, aheadable, report.command_jails.detail);
  assert.match(
    report.command_jails.detail,
    aheadable ? /^each made ahead, while the model answers/ : /^each made when it comes \(/,
  );
  // A run's waits for a CPU are known where the kernel keeps schedstat or /proc/stat is there.
  const [schedstat, stat] = await Promise.all(
    ["/proc/self/schedstat", "/proc/stat"].map((file) =>
      new Deno.Command("cat", { args: [file], stdout: "null", stderr: "null" }).output()
    ),
  );
  // ... and a cgroup counts a run's CPU time (as root here; none for an unprivileged user).
  const counted = report.cgroup !== null && !report.cgroup.endsWith("CPU time not counted");
  const known = (schedstat.success || stat.success) && counted;
  assert.equal(report.timeouts.own_time, known, report.timeouts.detail);
  assert.match(report.timeouts.detail, known ? /^in each run's own time: / : /^wall-clock time: /);
  // jest is no program of the machine: each task's npm environment brings it.
  assert.match(report.runners.jest, /jest 29, patchgym env build/);
  assert.deepEqual(Object.keys(report.permissions).sort(), [
    "env",
    "ffi",
    "net",
    "read",
    "run",
    "sys",
    "write",
  ]);
  // Every grant is scoped, so no permission is granted as a whole.
  for (const [name, state] of Object.entries(report.permissions)) {
    assert.notEqual(state, "granted", name);
  }
});

Deno.test("doctorCommand() says which --api an endpoint supports", async () => {
  const vllm = startQwen3Server([]);
  // Like SGLang: /tokenize takes text only.
  const chatOnly = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/v1/models"
        ? Response.json({ data: [] })
        : Response.json({ error: "prompt is required" }, { status: 422 }),
  );
  try {
    const modes = [];
    for (const url of [vllm.baseUrl, `http://127.0.0.1:${chatOnly.addr.port}/v1`]) {
      const result = await runPatchgym(["doctor", "--json", "--base-url", url]);
      const report = JSON.parse(result.stdout);
      assert.equal(report.model_endpoint.reachable, true, report.model_endpoint.detail);
      modes.push(report.model_endpoint.apis);
    }
    assert.deepEqual(modes, [["chat", "tokens"], ["chat"]]);
  } finally {
    await vllm.close();
    await chatOnly.shutdown();
  }
});

// Issue 25: doctor said only "fetch failed" for an endpoint where nothing listens.
Deno.test("doctorCommand() says what it tried at the endpoint and what came back", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const html = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("<html>a web page</html>", { headers: { "content-type": "text/html" } }),
  );
  try {
    const dead = await runPatchgym([
      "doctor",
      "--json",
      "--base-url",
      `http://127.0.0.1:${port}/v1`,
    ]);
    const deadReport = JSON.parse(dead.stdout).model_endpoint;
    assert.equal(deadReport.reachable, false);
    assert.equal(
      deadReport.detail,
      `GET http://127.0.0.1:${port}/v1/models: nothing is listening at 127.0.0.1:${port}; start the model server or fix --base-url`,
    );
    const page = await runPatchgym([
      "doctor",
      "--json",
      "--base-url",
      `http://127.0.0.1:${html.addr.port}`,
    ]);
    const pageReport = JSON.parse(page.stdout).model_endpoint;
    assert.equal(pageReport.reachable, false);
    assert.match(
      pageReport.detail,
      /HTTP 200, but not an OpenAI model list \("<html>a web page<\/html>"\)/,
    );
  } finally {
    await html.shutdown();
  }
});

Deno.test("runCli() exits 2 for an unknown command", async () => {
  const result = await runPatchgym(["frobnicate"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /Unknown command "frobnicate"/);
  const typo = await runPatchgym(["rolout"]);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /Unknown command "rolout"; did you mean "rollout"\?/);
});

Deno.test("runCli() suggests the flag meant by a misspelled one", async () => {
  const result = await runPatchgym(["rollout", "--sample", "2"]);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /rollout: Unknown option '--sample'; did you mean "--samples"\?/);
});

// Issue 25: an empty --tasks-dir said "0/0 tasks valid" and exited 0.
Deno.test("runCli() fails rollout, validate and tasks on a folder with no task folders", async () => {
  const dir = makeRunDir("no-tasks");
  try {
    for (const command of ["rollout", "validate", "tasks"]) {
      const result = await runPatchgym([command, "--tasks-dir", dir]);
      assert.equal(result.code, 1, `${command}: ${result.stderr}`);
      assert.match(
        result.stderr,
        new RegExp(`${dir}: no task folders found; tasks are expected as ${dir}/<id>/task\\.json`),
      );
    }
  } finally {
    removeRunDir(dir);
  }
});

// Issue 14: a wrong task id got three different treatments in three commands.
Deno.test("runCli() treats a wrong task id alike in rollout, score and validate", async () => {
  const expected =
    /^Cannot load tasks:\n {2}tasks\/py-median-evn: no such task; did you mean "py-median-even"\?; run "deno task patchgym tasks" to list the \d+ available\n$/;
  for (
    const args of [
      ["rollout", "--tasks", "py-median-evn"],
      ["score", "--task", "py-median-evn", "--patch", "tasks/py-median-even/solution.patch"],
      ["validate", "--tasks", "py-median-evn"],
    ]
  ) {
    const result = await runPatchgym(args);
    assert.equal(result.code, 1, `${args[0]}: ${result.stderr}`);
    assert.match(result.stderr, expected, args[0]);
  }
});

// Issue 14: score exited 0 on a patch that does not apply.
Deno.test("scoreCommand() exits 1 when the patch does not apply", async () => {
  const result = await runPatchgym(
    ["score", "--task", "py-median-even", "--patch", "-"],
    { stdin: "--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n" },
  );
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stdout, /patch did not apply/);
  assert.match(result.stderr, /^The patch did not apply to py-median-even: /);
});

Deno.test({
  name: "doctorCommand() --queue reports the queue's jobs, and a queue that does not answer",
  ignore: !HAS_REDIS,
  fn: async () => {
    const redis = await startRedis();
    try {
      const queue = await JobQueue.connect(
        redis.url,
        "doctor",
        queueKey("d".repeat(40), "test"),
      );
      await queue.enqueue([{
        format: JOB_FORMAT,
        run_id: "r",
        episode_id: "r/t/0",
        task_id: "t",
        sample: 0,
        group_id: "r/t",
        max_attempts: 1,
        run: {},
      }]);
      await queue.close();
      const up = await runPatchgym([
        "doctor",
        "--json",
        "--queue",
        redis.url,
        "--queue-name",
        "doctor",
      ]);
      const report = JSON.parse(up.stdout);
      assert.equal(report.queue.reachable, true);
      assert.match(report.queue.detail, /redis \d+\.\d+.*1 job\(s\) waiting, 0 running/);
    } finally {
      await redis.stop();
    }
    const down = await runPatchgym(["doctor", "--json", "--queue", redis.url]);
    assert.equal(down.code, 1);
    const report = JSON.parse(down.stdout);
    assert.equal(report.queue.reachable, false);
    assert.ok(
      report.problems.some((p: string) => p.startsWith("queue not reachable: Cannot connect")),
      down.stdout,
    );
  },
});
