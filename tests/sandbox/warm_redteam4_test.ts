/**
 * Red-team round 11: the warm interpreter's `took` on its stderr and the answers on its stdout
 * (`src/sandbox/_zygote.ts`), and the run around them (`src/sandbox/_child.ts`). The invariant: a
 * run whose request was taken is never started a second time cold, no run waits past its timeout,
 * and an honest run gets a cold run's result. Stand-in interpreters (`_warm_fixtures.ts`) test the
 * protocol everywhere; the real warm interpreter is attacked as root. Each test asserts the secure
 * or faithful behaviour; the ones that held stay as regression tests.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RunResult } from "../../src/sandbox/sandbox.ts";
import { type ChildSpec, runChild } from "../../src/sandbox/_child.ts";
import { type WarmStart, Zygote, zygoteFor } from "../../src/sandbox/_zygote.ts";
import { pidsWith } from "../_fixtures.ts";
import {
  coldBox,
  skipped,
  STAND_IN_REQUEST,
  standIn,
  warmBox,
  withFolders,
} from "./_warm_fixtures.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// 1. What the warm interpreter's stderr and stdout may hold.

Deno.test({
  // A `took` after a line far over the answer cap, after bytes that are not UTF-8, and as the last,
  // unterminated line of its stderr is still read: the run was taken, and is lost, never cold.
  name: "warm 4: `took` after an over-long or non-UTF-8 line, or without its line feed, is read",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const noise = [
      `os.write(2, b"x" * 200000 + b"\\n")`,
      `os.write(2, b"\\xff\\xfe\\x80 not utf-8 \\xc3\\n")`,
      `os.write(2, b"took " + number + b" trailing words\\ntook\\n")`,
      `os.write(2, b"y" * 5000)`,
    ];
    for (const [i, before] of noise.entries()) {
      for (const end of ["\\n", ""]) {
        // The noise, then `took` (with or without its line feed) and the end, with no middle.
        const zygote = new Zygote(
          standIn(`${before}\nos.write(2, b"\\ntook " + number + b"${end}")\nos._exit(0)`),
        );
        assert.equal(await zygote.start(1, STAND_IN_REQUEST), "lost", `noise ${i}, end ${end}`);
        zygote.close();
      }
    }
  },
});

Deno.test({
  // A line over the cap whose head reads `took ID` is not a `took` (it is cut, not whole), and a
  // lone took without its id neither: the run, never taken, starts cold.
  name: "warm 4: a cut line or a bare `took` is no `took`",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    for (
      const line of [
        `b"took " + number + b" " * 10000 + b"\\n"`,
        `b"took\\n"`,
        `b"took " + number + b"0\\n"`,
        `b" took " + number + b"\\n"`,
      ]
    ) {
      const zygote = new Zygote(standIn(`os.write(2, ${line})\nos._exit(0)`));
      assert.equal(typeof await zygote.start(1, STAND_IN_REQUEST), "object", line);
      zygote.close();
    }
  },
});

Deno.test({
  // Its stdout ends before its stderr says `took`: the end of stdout waits for the end of stderr,
  // so the run is lost (taken), not started cold.
  name: "warm 4: stdout ending before `took` is read does not make a taken run cold",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const zygote = new Zygote(standIn(`os.close(1)
time.sleep(0.3)
took()
time.sleep(0.1)
os._exit(0)`));
    assert.equal(await zygote.start(1, STAND_IN_REQUEST), "lost");
    zygote.close();
  },
});

Deno.test({
  // A middle's `ok` read before the warm interpreter's `took` (two pipes, no order between them):
  // the run started.
  name: "warm 4: `ok` read before `took` starts the run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const zygote = new Zygote(standIn(`os.write(1, b"ok " + number + b"\\n")
time.sleep(0.3)
took()
os._exit(0)`));
    assert.equal(await zygote.start(1, STAND_IN_REQUEST), "started");
    zygote.close();
  },
});

// ---------------------------------------------------------------------------------------------
// 2. An answer that comes after its run ended.

/**
 * Runs `spec` with `Deno.kill` watched: the kills made after `runChild` returned, once `settle`
 * (which ends the stand-in's last process) let the warm interpreter's late answer come.
 */
async function killsAfterReturn(
  spec: ChildSpec,
  settle: () => Promise<void>,
): Promise<{ result: Awaited<ReturnType<typeof runChild>>; late: unknown[][] }> {
  const kill = Deno.kill;
  const late: unknown[][] = [];
  let returned = false;
  // deno-lint-ignore no-explicit-any
  (Deno as any).kill = (...args: Parameters<typeof Deno.kill>) => {
    if (returned) {
      late.push(args);
      return;
    }
    return kill(...args);
  };
  try {
    const result = await runChild(spec, () => Promise.reject(new Error("no helper here")));
    returned = true;
    const zygote = zygoteFor(spec.warm!.zygote)!;
    await settle();
    // Both of its streams ended, and what waited on them ran.
    for (let i = 0; i < 500 && (zygote.endedAt === null || !zygote.idle); i++) await tick(10);
    assert.ok(zygote.idle, "every run it took was ended");
    await tick(50);
    return { result, late };
  } finally {
    Deno.kill = kill;
  }
}

/** A warm run of a stand-in (its "bwrap" sleeps until killed at the run's timeout). */
function standInSpec(zygote: string[]): ChildSpec {
  return {
    argv: ["/bin/true"],
    cwd: "/",
    env: {},
    stdin: null,
    cap: 4096,
    timeoutMs: 300,
    detached: false,
    killGroup: false,
    sweep: null,
    warm: { argv: ["/bin/sleep", "600"], request: STAND_IN_REQUEST, zygote },
  };
}

Deno.test({
  // The hole: the run's `then` on the warm interpreter's answer kills the run's first process
  // whenever the answer comes. A taken run whose middle ended unanswered while another middle lived
  // on (the warm interpreter SIGKILLed between `took` and its fork, a middle OOM-killed) ends at its
  // timeout; its `lost` comes once that other middle ends, long after the run returned, and then
  // SIGKILLs the pid, and the process group, of a bwrap reaped long ago: whatever process has that
  // pid by then (as root, any).
  name: "warm 4: a `lost` that comes after its run ended kills no process",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const marker = await Deno.makeTempFile({ prefix: "patchgym-rt11-" });
    try {
      // Takes the request, forks no middle for it, and ends; another middle holds its stdout.
      const argv = standIn(`took()
if os.fork() == 0:
    leave()
    while os.path.exists(${JSON.stringify(marker)}):
        time.sleep(0.02)
    os._exit(0)
os._exit(0)`);
      const { result, late } = await killsAfterReturn(
        standInSpec(argv),
        () => Deno.remove(marker),
      );
      assert.equal(result.warm, true);
      assert.equal(result.timedOut, true);
      assert.deepEqual(late, [], "a stale pid was killed");
    } finally {
      await Deno.remove(marker).catch(() => {});
    }
  },
});

Deno.test({
  // The same for a run never taken: the warm interpreter hung past the run's timeout, then ended
  // without taking it. Its `{failed}` comes after the run returned.
  name: "warm 4: a `failed` that comes after its run ended kills no process",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const marker = await Deno.makeTempFile({ prefix: "patchgym-rt11-" });
    try {
      const argv = standIn(`while os.path.exists(${JSON.stringify(marker)}):
    time.sleep(0.02)
os._exit(0)`);
      const { result, late } = await killsAfterReturn(
        standInSpec(argv),
        () => Deno.remove(marker),
      );
      assert.equal(result.timedOut, true);
      assert.deepEqual(late, [], "a stale pid was killed");
    } finally {
      await Deno.remove(marker).catch(() => {});
    }
  },
});
