/**
 * The launcher's `runs` server (`src/sandbox/_runner.ts`): a run through it gives what a run
 * spawned by Deno gives, byte for byte; it starts nothing but the launcher, leaks none of its pipes
 * into a run, and a run it cannot finish fails instead of waiting for ever.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { shared } from "../../src/bytes.ts";
import { type ChildSpec, runChild } from "../../src/sandbox/_child.ts";
import { helperFor } from "../../src/sandbox/_helper.ts";
import { RunServer, stdinParts } from "../../src/sandbox/_runner.ts";
import { probeCgroups, sandboxCgroup } from "../../src/sandbox/cgroup.ts";
import { CHILD_PATH } from "../../src/sandbox/programs.ts";
import { pidsWith } from "../_fixtures.ts";
import { compiledLauncher, rootLauncher, skip } from "./_launcher_fixture.ts";

const encoder = new TextEncoder();

/** A `python3 -c CODE` run through `launcher`, outside any jail, in a scratch folder. */
function python(launcher: string, cwd: string, code: string, more: Partial<ChildSpec> = {}) {
  return {
    argv: [launcher, "--", "python3", "-c", code],
    cwd,
    env: { PATH: CHILD_PATH, ZED: "last", ALPHA: "first", "WITH=": "x" },
    stdin: null,
    cap: 1000,
    timeoutMs: 20_000,
    detached: false,
    killGroup: true,
    sweep: null,
    ...more,
  } satisfies ChildSpec;
}

/** Run `fn` with the compiled launcher, a server of it, and a scratch folder; all gone after. */
async function withServer(
  fn: (launcher: string, server: RunServer, cwd: string) => Promise<void>,
): Promise<void> {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const server = new RunServer(launcher);
  const cwd = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-runs-" }));
  try {
    await fn(launcher, server, cwd);
  } finally {
    server.close();
    await Deno.remove(cwd, { recursive: true });
  }
}

Deno.test("a run through the runs server gives what a run Deno spawns gives, byte for byte", async () => {
  await withServer(async (launcher, server, cwd) => {
    const helper = helperFor(launcher);
    const cases: [string, ChildSpec][] = [
      // Over the cap on stdout (head, tail and the line between), some stderr, an exit code.
      [
        "flood",
        python(
          launcher,
          cwd,
          "import sys\nfor i in range(3000): print(i)\nsys.stderr.write('é' * 7)\nsys.exit(3)",
        ),
      ],
      // Exactly the cap, odd, so the head takes one byte more than the tail.
      ["exact", python(launcher, cwd, "print('x' * 998)", { cap: 999 })],
      // stdin in parts, bytes that never change (sent once as a blob) before and after others.
      [
        "stdin",
        python(
          launcher,
          cwd,
          "import sys, os\nd = sys.stdin.buffer.read()\nprint(len(d), d[:20], d[-20:])\n" +
            "print(sorted(os.listdir('/proc/self/fd')), os.getcwd(), sorted(os.environ.items()))",
          {
            stdin: [
              shared(encoder.encode("constant ".repeat(20_000))),
              encoder.encode("per run\0 bytes"),
              shared(encoder.encode("after")),
            ],
          },
        ),
      ],
      // Killed by a signal: Deno's code and name for it.
      ["signal", python(launcher, cwd, "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")],
      // Nothing on stdin but its end; the environment as the program sees it.
      ["environment", python(launcher, cwd, "import os\nprint(open('/proc/self/environ').read())")],
    ];
    for (const [name, spec] of cases) {
      const served = await runChild(spec, helper, null, server);
      const spawned = await runChild(spec, helper, null, null);
      assert.deepEqual(served, spawned, name);
    }
    const flood = await runChild(cases[0][1], helper, null, server);
    assert.equal(flood.code, 3);
    assert.ok(flood.truncated);
    assert.match(
      flood.stdout,
      /^0\n1\n[^]*bytes omitted: output capped at 1000 bytes[^]*\n2999\n$/,
    );
    const killed = await runChild(cases[3][1], helper, null, server);
    assert.deepEqual([killed.code, killed.signal], [137, "SIGKILL"]);
  });
});

Deno.test("a run the runs server cannot start throws, as a spawn that fails does", async () => {
  await withServer(async (launcher, server, cwd) => {
    const spec = python(launcher, `${cwd}/missing`, "pass");
    const helper = helperFor(launcher);
    await assert.rejects(runChild(spec, helper, null, server), /No such file or directory/);
    await assert.rejects(runChild(spec, helper, null, null));
  });
});

/**
 * What a `runs` server of `launcher` answers to one run request `id` of `fields` (NUL-ended) and
 * then `rest` (its stdin), written by hand as an attacker would, and the end of its input.
 */
async function rawRequest(
  launcher: string,
  id: string,
  fields: string[],
  rest = "",
): Promise<string> {
  const child = new Deno.Command(launcher, {
    args: ["runs"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const payload = encoder.encode(fields.map((field) => `${field}\0`).join("") + rest);
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(`${id} run ${payload.length}\n`));
  await writer.write(payload);
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

Deno.test("the runs server execs only the launcher, whatever a request names", async () => {
  // The attack: a request whose argv[0] is another program. The server runs its own file, in
  // launch mode, with that argv: `-c` is no step of the launcher's, so nothing runs.
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const fields = ["/", "1000", "0", "0", "1", "-", "3", "/usr/bin/python3", "-c", "print('pwned')"]
    .concat(["1", `PATH=${CHILD_PATH}`, "0"]);
  const answer = await rawRequest(launcher, "7", fields);
  assert.match(answer, /^7 pid \d+\n/);
  assert.doesNotMatch(answer, /pwned/);
  assert.match(answer, /7 end \d+\n125 0 /);
});

Deno.test("stdinParts() names every blob around the run's own bytes, which go once and in one piece", () => {
  const part = (n: number) => new Uint8Array(n);
  const [head, code, source, tail] = [part(1), part(2), part(3), part(4)];
  const blobs = new Map<Uint8Array, number>([[code, 7], [source, 8]]);
  const named = (stdin: Uint8Array[]) => stdinParts(stdin, (p) => blobs.get(p) ?? null);
  // A Python test run's: its own head, then the reporter's code and source, the same every run.
  assert.deepEqual(named([head, code, source]), { order: ["-", "7", "8"], inline: [head] });
  assert.deepEqual(named([code, head, source]), { order: ["7", "-", "8"], inline: [head] });
  // Bytes that could be a blob between two that cannot go with them.
  assert.deepEqual(named([code, head, source, tail]), {
    order: ["7", "-"],
    inline: [head, source, tail],
  });
  assert.deepEqual(named([code, source]), { order: ["7", "8", "-"], inline: [] });
  assert.deepEqual(named([]), { order: ["-"], inline: [] });
});

Deno.test("the runs server refuses a request whose stdin names its own bytes never or twice", async () => {
  // The attack: a request that leaves the run's bytes out, or hands them on twice.
  const launcher = await compiledLauncher();
  if (!launcher) return;
  for (const parts of [["0"], ["2", "-", "-"]]) {
    const fields = ["/", "1000", "0", "1", ...parts, "2", launcher, "--", "0", "0"];
    const answer = await rawRequest(launcher, "9", fields, "input");
    assert.match(answer, /^9 fail \d+\npatchgym: a malformed run request/, parts.join(" "));
  }
});

/** The parent of process `pid` (Deno reads no /proc in tests that do not need it: `ps`). */
async function parentOf(pid: number): Promise<number> {
  const ps = await new Deno.Command("ps", {
    args: ["-o", "ppid=", "-p", String(pid)],
    stdout: "piped",
  })
    .output();
  return Number(new TextDecoder().decode(ps.stdout).trim());
}

/** A run through `server` that says it started and then sleeps `seconds`: its pid, its end. */
async function sleeper(launcher: string, server: RunServer, cwd: string, seconds: number) {
  const spec = python(
    launcher,
    cwd,
    `import time\nprint('up', flush=True)\ntime.sleep(${seconds})`,
  );
  const served = server.start(spec, spec.argv)!;
  return { spec, pid: await served.pid, end: served.end };
}

Deno.test("runs under way are answered after their server died; later runs are not its", async () => {
  await withServer(async (launcher, server, cwd) => {
    const { spec, pid, end } = await sleeper(launcher, server, cwd, 1);
    assert.ok(pid > 0);
    Deno.kill(server.pid!, "SIGKILL");
    // The run's own process holds the answers' pipe: the run ends as it would have.
    const ended = await end;
    assert.deepEqual([ended.code, ended.stdout], [0, "up\n"]);
    assert.ok(server.broken);
    assert.equal(server.start(spec, spec.argv), null);
  });
});

Deno.test("a run whose process in the server dies is answered as failed, never waited on", async () => {
  await withServer(async (launcher, server, cwd) => {
    const { pid, end } = await sleeper(launcher, server, cwd, 60);
    const handler = await parentOf(pid);
    assert.equal(await parentOf(handler), server.pid);
    Deno.kill(handler, "SIGKILL");
    await assert.rejects(end, /the run's process died/);
    // The launcher it had started is not left running: kill it (a jail's sweep would).
    Deno.kill(pid, "SIGKILL");
    // The server still serves.
    const next = await sleeper(launcher, server, cwd, 0);
    assert.equal((await next.end).stdout, "up\n");
  });
});

Deno.test("a NUL in a run's argument never shifts the request's fields: the run is refused", async () => {
  // The attack (found by a second reader): an argument the model chooses (a deno_test selector's
  // filter) held NULs; joined NUL-ended, the rest of it became the environment and the sweep of
  // the launcher, still root. A spawn refuses a NUL; the server's request must too.
  await withServer(async (launcher, server, cwd) => {
    const marker = `${cwd}/ran`;
    const injected = `x\0 1\0INJECTED=yes\0 0\0 rest`;
    const spec = python(launcher, cwd, `open(${JSON.stringify(marker)}, 'w')`, {
      argv: [launcher, "--", "python3", "-c", `open(${JSON.stringify(marker)}, 'w')`, injected],
    });
    const helper = helperFor(launcher);
    const served = await runChild(spec, helper, null, server).then(() => null, (e) => e);
    const spawned = await runChild(spec, helper, null, null).then(() => null, (e) => e);
    assert.ok(served instanceof Error, "the run through the server was not refused");
    assert.ok(spawned instanceof Error);
    assert.throws(() => Deno.statSync(marker), Deno.errors.NotFound);
    // The server is fine after it: the next run runs.
    const next = await runChild(python(launcher, cwd, "print('ok')"), helper, null, server);
    assert.equal(next.stdout, "ok\n");
  });
});

Deno.test("a run's clock stops when its launcher exits, not when its output ends", async () => {
  // Found by a second reader: the server answers after the stdin grace, the sweep and the drain
  // of what a left-behind process still holds; a clock stopped only then timed out a run that
  // had exited in time (and could kill its pid, free by then).
  await withServer(async (launcher, server, cwd) => {
    const spec = python(
      launcher,
      cwd,
      "import os, time\nif os.fork() == 0:\n    time.sleep(2)\n    os._exit(0)\nprint('bye')",
      { timeoutMs: 300, killGroup: false },
    );
    const helper = helperFor(launcher);
    const served = await runChild(spec, helper, null, server);
    const spawned = await runChild(spec, helper, null, null);
    assert.deepEqual([served.timedOut, served.code, served.stdout], [false, 0, "bye\n"]);
    assert.deepEqual(served, spawned);
    // What was left behind holds nothing of the scratch folder once it is gone.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
  });
});

Deno.test("a run whose process in the server dies leaves nothing running in its cgroup", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const cgroups = await probeCgroups(launcher);
  if (!cgroups.support) return skip(`no per-sandbox cgroups here (${cgroups.reason})`);
  await withServer(async (_, server, cwd) => {
    const cgroup = sandboxCgroup(
      cgroups.support!,
      { processes: 8, memoryBytes: 1 << 28 },
      launcher,
    );
    const token = `patchgym-runs-${crypto.randomUUID()}`;
    const spec = python(launcher, cwd, "import time\ntime.sleep(600)", {
      argv: [
        launcher,
        ...cgroup.steps,
        "--",
        "python3",
        "-c",
        "import time\ntime.sleep(600)",
        token,
      ],
      sweep: cgroup.sweepArgs,
    });
    const running = runChild(spec, helperFor(launcher), null, server);
    let sleeper: number | undefined;
    for (let i = 0; sleeper === undefined; i++) {
      assert.ok(i < 1000, "the run never started");
      await new Promise((resolve) => setTimeout(resolve, 20));
      sleeper = (await pidsWith(token))[0];
    }
    // The launcher execs python3 itself: its parent is the run's process in the server.
    Deno.kill(await parentOf(sleeper), "SIGKILL");
    await assert.rejects(running, /the run's process died/);
    assert.deepEqual(await pidsWith(token), []);
  });
});

Deno.test("a jail made ahead through the runs server gives what one Deno spawns gives", async () => {
  await withServer(async (launcher, server, cwd) => {
    const helper = helperFor(launcher);
    const spec: ChildSpec = {
      ...python(launcher, cwd, ""),
      argv: [launcher, "await", "--"],
      ahead: true,
    };
    const run = (code: string) =>
      encoder.encode(
        [`PATH=${CHILD_PATH}`, "", "--", "python3", "-c", code].map((f) => `${f}\0`).join(""),
      );
    const cases: [string, Uint8Array | null][] = [
      ["a run", run("import sys\nprint('out')\nsys.stderr.write('err')\nsys.exit(4)")],
      // The launcher's own markers, printed by the program: output like any other.
      ["markers", run("import sys\nsys.stderr.write('patchgym: ready\\npatchgym: run\\nx')")],
      ["no run", null],
    ];
    for (const [name, bytes] of cases) {
      const results = [];
      for (const via of [server, null]) {
        let ready = false;
        const gate = { run: Promise.resolve(bytes), ready: () => (ready = true, undefined) };
        results.push({ ...await runChild(spec, helper, gate, via), ready });
      }
      assert.deepEqual(results[0], results[1], name);
      assert.equal(results[0].ready, true, name);
    }
  });
});

Deno.test("stderr that ends inside a marker is output, through the runs server or spawned", async () => {
  // Found by a second reader: the spawned reader dropped a start held as a marker's when its
  // stream ended there; the server's kept it. Both keep it now (it is the program's output).
  await withServer(async (launcher, server, cwd) => {
    const helper = helperFor(launcher);
    for (const text of ["patchgym: ready\\npatchgym: ru", "patchgym: re"]) {
      const code = `import sys\nsys.stderr.write('${text}')\nsys.stderr.flush()\nsys.stdin.read()`;
      const spec: ChildSpec = { ...python(launcher, cwd, code), ahead: true };
      const results = [];
      for (const via of [server, null]) {
        const gate = { run: Promise.resolve(encoder.encode("x")), ready: () => {} };
        results.push(await runChild(spec, helper, gate, via));
      }
      assert.deepEqual(results[0], results[1], text);
      assert.equal(results[0].stderr, text.endsWith("ru") ? "patchgym: ru" : "patchgym: re");
    }
  });
});
