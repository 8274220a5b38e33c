/** `patchgym serve --stdio` end to end: the README client, and the JSON-lines protocol directly. */
import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation } from "../../src/sandbox/sandbox.ts";
import { FORK_BOMB, pidsWith } from "../_fixtures.ts";
import {
  listTree,
  makeRunDir,
  makeWorkRoot,
  patchgymArgv,
  removeRunDir,
  removeWorkRoot,
  ROOT,
  runArgv,
  ServeProcess,
} from "./_run.ts";

const SOLUTION = readFileSync(join(ROOT, "tasks/py-median-even/solution.patch"), "utf8");

function step(id: string, episodeId: unknown, name: string, args: Record<string, unknown>) {
  return {
    op: "step",
    id,
    episode_id: episodeId,
    message: {
      role: "assistant",
      content: null,
      tool_calls: [{
        id: `call_${id}`,
        type: "function",
        function: { name, arguments: JSON.stringify(args) },
      }],
    },
  };
}

function errorCode(answer: Record<string, unknown> | undefined): unknown {
  return (answer?.error as { code?: unknown } | undefined)?.code;
}

Deno.test("serveCommand() drives the README client to reward 1", async () => {
  const result = await runArgv([
    "python3",
    "examples/serve_client.py",
    "--task",
    "py-median-even",
    "--patch",
    "tasks/py-median-even/solution.patch",
    "--",
    ...patchgymArgv(["serve", "--stdio"]),
  ]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
  assert.match(result.stdout, /reward=1\b/);
  assert.match(result.stdout, /stop=submitted/);
});

Deno.test("serveCommand() answers bad lines with error codes and keeps serving", async () => {
  const server = new ServeProcess();
  try {
    const unknownOp = await server.request({ op: "nope", id: 1 });
    assert.equal(unknownOp.id, 1);
    assert.equal(errorCode(unknownOp), "bad_request");
    await server.send("{not json");
    assert.equal(errorCode(await server.next() ?? undefined), "bad_json");
    const unknownEpisode = await server.request(step("s1", "no-such-episode", "inspect_tree", {}));
    assert.equal(unknownEpisode.id, "s1");
    assert.equal(errorCode(unknownEpisode), "unknown_episode");
    const unknownTask = await server.request({ op: "reset", id: "r1", task_id: "no-such-task" });
    assert.equal(unknownTask.id, "r1");
    assert.equal(errorCode(unknownTask), "unknown_task");
    assert.match((unknownTask.error as { message: string }).message, /no-such-task/);
    // Still answering after every error.
    const reset = await server.request({ op: "reset", id: 7, task_id: "py-median-even", seed: 0 });
    assert.equal(reset.id, 7);
    assert.equal(typeof reset.episode_id, "string");
    assert.ok(Array.isArray(reset.messages) && Array.isArray(reset.tools));
    const { code, answers } = await server.finish();
    assert.equal(code, 0);
    assert.deepEqual(answers, []);
  } finally {
    await server.kill();
  }
});

Deno.test("serveCommand() runs two interleaved episodes and refuses a step after done", async () => {
  const server = new ServeProcess();
  try {
    await server.send({ op: "reset", id: "a", task_id: "py-median-even", seed: 0 });
    await server.send({ op: "reset", id: "b", task_id: "py-median-even", seed: 1 });
    const resets = [await server.next(), await server.next()];
    const episode = Object.fromEntries(resets.map((r) => [r?.id, r?.episode_id]));
    assert.equal(typeof episode.a, "string");
    assert.equal(typeof episode.b, "string");
    assert.notEqual(episode.a, episode.b);

    const requests = [
      step("a1", episode.a, "inspect_tree", {}),
      step("b1", episode.b, "inspect_tree", {}),
      step("a2", episode.a, "apply_patch", { patch: SOLUTION }),
      step("b2", episode.b, "submit", { status: "blocked", summary: "giving up" }),
      step("a3", episode.a, "submit", { status: "solved", summary: "fixed the even case" }),
      step("b3", episode.b, "inspect_tree", {}),
      { op: "close", id: "c", episode_id: episode.a },
    ];
    for (const request of requests) await server.send(request);
    const { code, answers } = await server.finish();
    assert.equal(code, 0);
    const byId = Object.fromEntries(answers.map((a) => [a.id, a]));
    assert.deepEqual(Object.keys(byId).sort(), ["a1", "a2", "a3", "b1", "b2", "b3", "c"]);
    for (const id of ["a1", "a2", "b1"]) {
      assert.equal(byId[id].done, false, `${id}: ${JSON.stringify(byId[id])}`);
      assert.equal((byId[id].info as { tool: { ok: boolean } }).tool.ok, true, id);
    }
    assert.equal(byId.a3.done, true);
    assert.equal(byId.a3.reward, 1);
    assert.equal((byId.a3.info as { stop_reason: string }).stop_reason, "submitted");
    assert.equal(byId.b2.done, true);
    assert.equal(byId.b2.reward, 0);
    assert.equal(errorCode(byId.b3), "episode_done");
    assert.equal(byId.c.closed, true);
  } finally {
    await server.kill();
  }
});

function stepError(answer: Record<string, unknown> | null): unknown {
  return (answer?.info as { tool?: { code?: unknown } } | undefined)?.tool?.code;
}

// Issue 10: `^(a+)+$` on a 41-character line blocked every other episode for minutes.
Deno.test("serveCommand() answers another episode while a catastrophic search runs", async () => {
  const work = makeWorkRoot("serve-regex");
  const server = new ServeProcess(["--work-dir", work, "--search-timeout", "3"]);
  try {
    const a = (await server.request({ op: "reset", task_id: "py-median-even" })).episode_id;
    const b = (await server.request({ op: "reset", task_id: "py-median-even" })).episode_id;
    const evil = `${"a".repeat(40)}!\n`;
    const wrote = await server.request(
      step("w", a, "write_file", { path: "evil.txt", content: evil }),
    );
    assert.equal(wrote.done, false);
    await server.send(step("slow", a, "search", { pattern: "^(a+)+$", path: "evil.txt" }));
    // Each of B's requests, searches included, is answered before A's search: none waits on it.
    for (const id of ["b1", "b2", "b3"]) {
      const answer = await server.request(step(id, b, "search", { pattern: "def median" }));
      assert.equal(answer.id, id);
      assert.equal((answer.info as { tool: { ok: boolean } }).tool.ok, true);
      const observation = answer.observation as { content: string }[];
      assert.match(observation[0].content, /^\S+\.py:\d+:def median/);
    }
    const slow = await server.next();
    assert.equal(slow?.id, "slow");
    assert.equal(slow?.done, false);
    assert.equal(stepError(slow), "timeout");
    const { code } = await server.finish();
    assert.equal(code, 0);
    assert.deepEqual(listTree(work), []);
  } finally {
    await server.kill();
    removeWorkRoot(work);
  }
});

// Issue 10: a line nesting 200,000 deep crashed serve (stack overflow echoing the id), leaking
// every open workspace.
Deno.test("serveCommand() refuses deep nesting and over-long lines, echoing the id, and keeps serving", async () => {
  const work = makeWorkRoot("serve-lines");
  const server = new ServeProcess(["--work-dir", work, "--max-line-bytes", "1048576"]);
  try {
    const open = await server.request({ op: "reset", id: "r", task_id: "py-median-even" });
    const deep = `{"op":"reset","id":"deep","task_id":${"[".repeat(200_000)}${
      "]".repeat(200_000)
    }}`;
    await server.send(deep);
    const tooDeep = await server.next();
    assert.equal(tooDeep?.id, "deep");
    assert.equal(errorCode(tooDeep ?? undefined), "too_deep");
    await server.send(JSON.stringify({ id: 42, op: "reset", task_id: "x".repeat(1_100_000) }));
    const tooLong = await server.next();
    assert.equal(tooLong?.id, 42);
    assert.equal(errorCode(tooLong ?? undefined), "line_too_long");
    assert.match(
      (tooLong?.error as { message: string }).message,
      /1100\d{3} bytes .*--max-line-bytes/,
    );
    // Still serving, and the open episode still works.
    const answer = await server.request(step("after", open.episode_id, "inspect_tree", {}));
    assert.equal(answer.done, false);
    const { code, answers } = await server.finish();
    assert.equal(code, 0);
    assert.deepEqual(answers, []);
    assert.deepEqual(listTree(work), []);
  } finally {
    await server.kill();
    removeWorkRoot(work);
  }
});

// Issue 10: a 64 MiB line took a minute to buffer (quadratic string concatenation).
Deno.test("serveCommand() skips a 64 MiB line under the default cap and answers the next", async () => {
  const server = new ServeProcess();
  try {
    const huge = `{"op":"reset","id":"huge","pad":"${"a".repeat(64 * 1024 * 1024)}"}`;
    await server.send(huge);
    const answer = await server.next();
    assert.equal(answer?.id, "huge");
    assert.equal(errorCode(answer ?? undefined), "line_too_long");
    const next = await server.request({ op: "nope", id: "next" });
    assert.equal(errorCode(next), "bad_request");
    assert.equal((await server.finish()).code, 0);
  } finally {
    await server.kill();
  }
});

Deno.test("serveCommand() caps open episodes with too_many_episodes", async () => {
  const work = makeWorkRoot("serve-cap");
  const server = new ServeProcess(["--work-dir", work, "--max-episodes", "1"]);
  try {
    const first = await server.request({ op: "reset", id: 1, task_id: "py-median-even" });
    const refused = await server.request({ op: "reset", id: 2, task_id: "py-median-even" });
    assert.equal(refused.id, 2);
    assert.equal(errorCode(refused), "too_many_episodes");
    assert.match((refused.error as { message: string }).message, /1 are open.*close finished/);
    assert.equal(
      (await server.request({ op: "close", episode_id: first.episode_id })).closed,
      true,
    );
    const again = await server.request({ op: "reset", id: 3, task_id: "py-median-even" });
    assert.equal(typeof again.episode_id, "string");
    assert.equal((await server.finish()).code, 0);
    assert.deepEqual(listTree(work), []);
  } finally {
    await server.kill();
    removeWorkRoot(work);
  }
});

Deno.test("serveCommand() closes an idle episode and removes its workspace", async () => {
  const work = makeWorkRoot("serve-idle");
  const server = new ServeProcess(["--work-dir", work, "--idle-timeout", "0.05"]);
  try {
    const reset = await server.request({ op: "reset", task_id: "py-median-even" });
    // Sleeping at least the timeout makes the episode idle whatever the machine's speed.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answer = await server.request(step("late", reset.episode_id, "inspect_tree", {}));
    assert.equal(answer.id, "late");
    assert.equal(errorCode(answer), "episode_expired");
    const [proc] = listTree(work);
    assert.match(proc, /^proc-\d+-/);
    assert.deepEqual(listTree(`${work}/${proc}`), [".owner"]);
    assert.equal((await server.finish()).code, 0);
  } finally {
    await server.kill();
    removeWorkRoot(work);
  }
});

/**
 * A copy of py-median-even under runs/ whose commands time out after `timeoutS` seconds, so an
 * attack that the sandbox must end by timeout ends quickly; returns the tasks folder.
 */
function shortTimeoutTasks(runDir: string, timeoutS: number): string {
  const tasksDir = `${runDir}/tasks`;
  const taskDir = join(ROOT, tasksDir, "py-median-even");
  cpSync(join(ROOT, "tasks/py-median-even"), taskDir, { recursive: true });
  const spec = JSON.parse(readFileSync(join(taskDir, "task.json"), "utf8"));
  spec.limits.command_timeout_s = timeoutS;
  writeFileSync(join(taskDir, "task.json"), JSON.stringify(spec));
  return tasksDir;
}

/** Sandbox cgroups of process `pid` still on disk. */
async function cgroupsOf(pid: number): Promise<string> {
  const out = await new Deno.Command("find", {
    args: ["/sys/fs/cgroup", "-maxdepth", "5", "-name", `patchgym-${pid}-*`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("serveCommand() contains a fork bomb in run_command and leaves nothing behind", async () => {
  const isolation = await probeIsolation();
  if (!isolation.cgroup) {
    console.warn(`skipped: no per-sandbox cgroups here (${isolation.cgroupReason})`);
    return;
  }
  const runDir = makeRunDir("forkbomb");
  const token = `patchgym-bomb-${crypto.randomUUID()}`;
  // Bounded twice: by a counter (at most 2^7 processes even with no cap) and a 2 s timeout.
  const bomb = FORK_BOMB(token);
  const server = new ServeProcess([
    "--tasks-dir",
    shortTimeoutTasks(runDir, 2),
    "--sandbox-processes",
    "16",
  ]);
  try {
    const reset = await server.request({ op: "reset", id: "r", task_id: "py-median-even" });
    const answer = await server.request(
      step("s", reset.episode_id, "run_command", { argv: ["python3", "-c", bomb] }),
    );
    const text = JSON.stringify(answer);
    assert.equal((answer.info as { tool: { code: string } }).tool.code, "timeout", text);
    assert.match(text, /fork refused/);
    assert.match(text, /process cap of 16 was reached/);
    assert.deepEqual(await pidsWith(token), [], "a bomb process survived");
    // What is left is at most the jail made ahead for the episode's next command (as root: its
    // cgroup, under each controller), which ends with the episode (below).
    const left = new Set(
      (await cgroupsOf(server.pid)).split("\n").filter(Boolean).map((path) =>
        path.split("/").at(-1)
      ),
    );
    assert.ok(left.size <= 1, `sandbox cgroups were left: ${[...left].join(", ")}`);
    // The host still forks, and the episode goes on.
    assert.equal((await new Deno.Command("true").output()).success, true);
    const next = await server.request(
      step("t", reset.episode_id, "run_command", { argv: ["echo", "alive"] }),
    );
    assert.match(JSON.stringify(next), /alive/);
    const { code } = await server.finish();
    assert.equal(code, 0);
    assert.equal(await cgroupsOf(server.pid), "", "a sandbox cgroup was left");
  } finally {
    await server.kill();
    removeRunDir(runDir);
  }
});

// Guards a bug: under the real flags (run permission for sh only) Deno.kill was refused, so a
// command's timeout killed nothing and the step waited for the command to end by itself.
Deno.test("serveCommand() kills a command at its timeout under the real permission flags", async () => {
  const runDir = makeRunDir("timeout");
  const server = new ServeProcess(["--tasks-dir", shortTimeoutTasks(runDir, 2)]);
  try {
    const reset = await server.request({ op: "reset", id: "r", task_id: "py-median-even" });
    const sleeper =
      "import time\nprint('started', flush=True)\ntime.sleep(20)\nprint('woke', flush=True)";
    const answer = await server.request(
      step("s", reset.episode_id, "run_command", { argv: ["python3", "-c", sleeper] }),
    );
    const text = JSON.stringify(answer);
    assert.equal((answer.info as { tool: { code: string } }).tool.code, "timeout", text);
    assert.match(text, /started/);
    assert.doesNotMatch(text, /woke/, "the command ran to its end: the timeout did not kill it");
    assert.equal((await server.finish()).code, 0);
  } finally {
    await server.kill();
    removeRunDir(runDir);
  }
});

Deno.test("serveCommand() run_command cannot read the checkout, task store, runs, HOME or secrets", async () => {
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap") {
    console.warn(`skipped: isolation is "${isolation.level}", not bwrap`);
    return;
  }
  const home = Deno.env.get("HOME") ?? "/root";
  const targets = [
    join(ROOT, ".git/HEAD"),
    join(ROOT, "tasks/py-median-even/solution.patch"),
    join(ROOT, "tasks/py-median-even/hidden"),
    join(ROOT, "runs"),
    join(home, ".bashrc"),
    "/etc/shadow",
  ];
  const script = `
import os, sys
print("uid", os.getuid())
# Other episodes' workspaces share the host's workspace root; only this one is mounted.
print("workspaces", len(os.listdir(os.path.dirname(os.getcwd()))))
for path in sys.argv[1:]:
    try:
        open(path).read() if os.path.isfile(path) else os.listdir(path)
        print("READABLE", path)
    except OSError as e:
        print("refused", e.errno, path)
`;
  const server = new ServeProcess();
  try {
    const reset = await server.request({ op: "reset", id: "r", task_id: "py-median-even" });
    const answer = await server.request(
      step("s", reset.episode_id, "run_command", { argv: ["python3", "-c", script, ...targets] }),
    );
    const text = JSON.stringify(answer);
    assert.equal((answer.info as { tool: { ok: boolean } }).tool.ok, true, text);
    assert.doesNotMatch(text, /READABLE/);
    assert.doesNotMatch(text, /uid 0\b/);
    assert.match(text, /uid [1-9]/);
    assert.match(text, /workspaces 1\b/);
    for (const target of targets) assert.match(text, new RegExp(`refused \\d+ ${target}`));
    await server.finish();
  } finally {
    await server.kill();
  }
});
