/**
 * One sandboxed child from spawn to its last byte: the launcher's argv spawned, stdin written, both
 * streams read with a cap (head and tail kept), the timeout that kills the sandbox (in the run's
 * own time: see `RunClock`), and afterwards the process group killed or the sandbox's cgroup
 * swept. It is the part of a run that needs no state of the `Sandbox`, so it runs on the spawner
 * thread (`_spawner.ts`), whose event loop a slow `posix_spawn` may block instead of the one
 * running episodes, or, when there is no such thread, in the caller's. Private to `src/sandbox/`.
 */
import { concat } from "../bytes.ts";
import { cappedText } from "./_capped.ts";
import type { HelperCall } from "./_helper.ts";
import type { ShOutput } from "./_launch.ts";
import { type RunServer, type ServedAhead, type ServedRun, ServerGone } from "./_runner.ts";
import { RunClock, type RunWaits } from "./run_clock.ts";
import { type WarmRequest, type WarmStart, zygoteFor } from "./_zygote.ts";

/** Everything a child's run needs, as data (it crosses to the spawner thread). */
export interface ChildSpec {
  /** The launcher's argv (see `launchArgv`). */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Bytes for stdin, in parts, which is then closed; null: no stdin at all. */
  stdin: Uint8Array[] | null;
  /** Bytes kept per stream (half head, half tail). */
  cap: number;
  timeoutMs: number;
  /** Deno's `detached` (a process group of its own when there is no `setsid`). */
  detached: boolean;
  /** Kill the first process's group once it exits (no jail and no cgroup to end the rest). */
  killGroup: boolean;
  /** The cgroup sweep's arguments (see `sandboxCgroup`), run once the first process exits. */
  sweep: string[] | null;
  /** The launcher's `waited` arguments for its clock (see `RunClock`); null: no cgroup. */
  waited?: string[] | null;
  /**
   * The same run with its program forked from the warm interpreter (`_zygote.ts`): the launcher's
   * argv whose jail holds a place for it, and what the interpreter needs; null: cold only.
   */
  warm?: {
    argv: string[];
    request: WarmRequest;
    /** The warm interpreter's argv (see `zygoteProgram`), one per program and thread. */
    zygote: string[];
  } | null;
  /**
   * A jail made ahead of its run (the launcher's `await` step): spawned now, its program, steps
   * and environment written to its stdin when the run comes (see {@linkcode AheadGate}), and its
   * timeout counted from then. `stdin` and `warm` are not used.
   */
  ahead?: boolean;
}

/** How a jail made ahead ({@linkcode ChildSpec.ahead}) learns its run. */
export interface AheadGate {
  /** Settles with the run (what the launcher's `await` reads), or null: it is not needed. */
  run: Promise<Uint8Array | null>;
  /** Called once the jail is made and waits for its run. */
  ready(): void;
}

/**
 * What the launcher's `await` step says on stderr once its jail is made, and once it has read its
 * run (both taken off the stream): a jail that did not say the second never started its run.
 */
const READY = new TextEncoder().encode("patchgym: ready\n");
const TAKEN = new TextEncoder().encode("patchgym: run\n");

/** What the child did, as data. */
export interface ChildResult {
  code: number;
  signal: string | null;
  timedOut: boolean;
  /** The time its processes waited for a CPU that its timeout gave again, ms (see `RunClock`). */
  waitedMs: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** Bytes the child wrote to both streams. */
  outputBytes: number;
  /** The sweep's output, when there was one. */
  sweep: ShOutput | null;
  /** Whether the program was forked from the warm interpreter (see `_zygote.ts`). */
  warm: boolean;
  /** False for a jail made ahead that ended before its run came: nothing of a run started. */
  started: boolean;
}

/** How long to wait for pipes to drain after the child is gone. */
const DRAIN_GRACE_MS = 500;
/** How long a jail made ahead and not needed has to end by itself before it is killed. */
const CANCEL_GRACE_MS = 10_000;

/**
 * Run `spec`; throws when the launcher cannot be spawned, or when the warm interpreter was lost
 * while it started the run's program. A warm run the warm interpreter could not start is killed
 * before its program ran, and started cold.
 */
export async function runChild(
  spec: ChildSpec,
  helper: HelperCall,
  gate: AheadGate | null = null,
  server: RunServer | null = null,
): Promise<ChildResult> {
  if (spec.ahead) {
    if (!gate) throw new Error("a jail made ahead needs the gate its run comes through");
    const served = server?.ahead(spec);
    if (served) return await runServedAhead(spec, served, helper, gate);
    return (await runOnce(spec, spec.argv, helper, null, gate))!;
  }
  const once = (argv: string[], startWarm: ((pid: number) => Promise<WarmStart>) | null) => {
    const served = server?.start(spec, argv);
    return served
      ? runServed(spec, argv, served, helper, startWarm)
      : runOnce(spec, argv, helper, startWarm);
  };
  const warm = spec.warm;
  if (warm) {
    const zygote = zygoteFor(warm.zygote);
    if (zygote && !zygote.broken) {
      const result = await once(warm.argv, (pid) => zygote.start(pid, warm.request));
      if (result) return result;
    }
  }
  return (await once(spec.argv, null))!;
}

/**
 * The warm interpreter's part of a run (see `_zygote.ts`): asked at once, with the launcher's pid,
 * to fork the program into the jail bwrap builds meanwhile; a refusal or a loss kills the run.
 */
class WarmPart {
  refused = false;
  lost = false;
  /**
   * Set once the launcher is reaped: its pid is free, and an answer that comes later (a warm
   * interpreter that hung, or a `lost` that waited for another run's middle) must not kill
   * whatever has it now.
   */
  reaped = false;
  readonly answered: Promise<void> | undefined;

  constructor(
    startWarm: ((pid: number) => Promise<WarmStart>) | null,
    pid: number,
    helper: HelperCall,
  ) {
    this.answered = startWarm?.(pid).then((start) => {
      if (typeof start === "object") this.refused = true;
      else if (start === "lost") this.lost = true;
      else return;
      if (!this.reaped) killSandbox(pid, helper);
    });
  }

  /** After the run: null when it must start cold (refused); throws when the program was lost. */
  async outcome(result: ChildResult): Promise<ChildResult | null> {
    // The answer comes once the program runs, or once the warm interpreter saw bwrap gone.
    await atMost(this.answered, DRAIN_GRACE_MS);
    if (this.refused) return null;
    if (this.lost) {
      throw new Error(
        "the warm interpreter ended while it started the run's program (the run was stopped)",
      );
    }
    return result;
  }
}

/** The clock of a run whose launcher is `pid` (see `RunClock`): it kills the run at its end. */
function clockOf(spec: ChildSpec, pid: number, helper: HelperCall, warm: WarmPart) {
  const clock = {
    timedOut: false,
    clock: new RunClock(spec.timeoutMs, () => waitsOf(spec.waited ?? null, helper), () => {
      if (warm.reaped) return;
      clock.timedOut = true;
      killSandbox(pid, helper);
    }),
  };
  return clock;
}

/** `runOnce` through the thread's run server (see `_runner.ts`): its spawn, pipes and sweep in C. */
async function runServed(
  spec: ChildSpec,
  argv: string[],
  served: ServedRun,
  helper: HelperCall,
  startWarm: ((pid: number) => Promise<WarmStart>) | null,
): Promise<ChildResult | null> {
  let pid;
  try {
    pid = await served.pid;
  } catch (error) {
    // The server ended before it took the run: nothing of it started, so it is spawned here.
    if (error instanceof ServerGone) return await runOnce(spec, argv, helper, startWarm);
    throw error;
  }
  const warm = new WarmPart(startWarm, pid, helper);
  const timing = clockOf(spec, pid, helper, warm);
  // Its end comes after the stdin grace, the sweep and the drain: the clock stops at its exit.
  await served.exited;
  warm.reaped = true;
  timing.clock.stop();
  const { markers: _, ...end } = await servedEnd(spec, served, helper);
  return await warm.outcome({
    ...end,
    timedOut: timing.timedOut,
    waitedMs: timing.clock.creditedMs,
    warm: startWarm !== null,
    started: true,
  });
}

/** A served run's end (see `runServed`). */
async function servedEnd(spec: ChildSpec, served: ServedRun, helper: HelperCall) {
  try {
    return await served.end;
  } catch (error) {
    // Its process in the server died unanswered: what it started may still run, with no sweep to
    // end it. The cgroup's sweep ends everything in it, whatever its pids are by now.
    if (spec.sweep) await helper("sweep", spec.sweep).catch(() => {});
    throw error;
  }
}

/** A jail made ahead through the thread's run server: `runOnce` with a gate, its parts in C. */
async function runServedAhead(
  spec: ChildSpec,
  served: ServedAhead,
  helper: HelperCall,
  gate: AheadGate,
): Promise<ChildResult> {
  let pid;
  try {
    pid = await served.pid;
  } catch (error) {
    if (error instanceof ServerGone) return (await runOnce(spec, spec.argv, helper, null, gate))!;
    throw error;
  }
  served.ready.then(() => gate.ready());
  // The run (or word that none will come) before the clock starts.
  const run = await Promise.race([gate.run, served.exited.then(() => "exited" as const)]);
  let started = run instanceof Uint8Array;
  served.go(started ? run as Uint8Array : null);
  // Not needed: its stdin closes with nothing on it, and its launcher ends once it reads that.
  // Never killed while bwrap may still be making it (see `runOnce`).
  const killer = run === null
    ? setTimeout(() => killSandbox(pid, helper), CANCEL_GRACE_MS)
    : undefined;
  const warm = new WarmPart(null, pid, helper);
  const timing = started ? clockOf(spec, pid, helper, warm) : null;
  await served.exited;
  warm.reaped = true;
  timing?.clock.stop();
  clearTimeout(killer);
  const { markers, ...end } = await servedEnd(spec, served, helper);
  // Ready, and ended before it said it read its run: nothing of the run started (see `runOnce`).
  if (markers.ready && !markers.taken) started = false;
  return {
    ...end,
    timedOut: timing?.timedOut ?? false,
    waitedMs: timing?.clock.creditedMs ?? 0,
    warm: false,
    started,
  };
}

/** Run `argv` as `spec` says; null when `startWarm` said the warm interpreter could not start it. */
async function runOnce(
  spec: ChildSpec,
  argv: string[],
  helper: HelperCall,
  startWarm: ((pid: number) => Promise<WarmStart>) | null,
  gate: AheadGate | null = null,
): Promise<ChildResult | null> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: spec.cwd,
    env: spec.env,
    clearEnv: true,
    stdin: spec.stdin || gate ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: spec.detached,
  }).spawn();
  const warm = new WarmPart(startWarm, child.pid, helper);
  const stdout = new CappedReader(child.stdout, spec.cap);
  let [ready, taken] = [false, false];
  const stderr = new CappedReader(
    child.stderr,
    spec.cap,
    gate
      ? [
        { marker: READY, seen: () => (ready = true, gate.ready()) },
        { marker: TAKEN, seen: () => taken = true },
      ]
      : [],
  );
  const reading = Promise.all([stdout.done, stderr.done]);
  let stdin = spec.stdin;
  let started = true;
  if (gate) {
    // Made ahead: the run (or word that none will come) before the clock starts.
    const exited = child.status.then(() => "exited" as const);
    const run = await Promise.race([gate.run, exited]);
    started = run instanceof Uint8Array;
    stdin = started ? [run as Uint8Array] : null;
    // Not needed: its stdin closes with nothing on it, and its launcher ends once it reads that.
    // Never killed while bwrap may still be making it: bwrap's first process in the jail then
    // waits forever for the one killed (it dies with its parent only later in its making).
    if (run === null) {
      const killer = setTimeout(() => killSandbox(child.pid, helper), CANCEL_GRACE_MS);
      child.status.finally(() => clearTimeout(killer));
    }
  }
  const timing = started ? clockOf(spec, child.pid, helper, warm) : null;
  // Written beside the clock and the readers, never before them: a child that does not read a
  // stdin larger than a pipe would otherwise hold the run before its timeout even started. A
  // child that exits without reading its stdin must not fail the run.
  const writer = spec.stdin || gate ? child.stdin.getWriter() : null;
  const writing = writer
    ? (async () => {
      for (const part of stdin ?? []) await writer.write(part);
      await writer.close();
    })().catch(() => {})
    : undefined;
  const status = await child.status;
  warm.reaped = true;
  timing?.clock.stop();
  // What is left unread by now (a process that left the sandbox holds the pipe) is dropped.
  await atMost(writing, DRAIN_GRACE_MS);
  await writer?.abort().catch(() => {});
  // Anything the child left behind dies with it: all of its cgroup (the sweep), else its process
  // group. A jail needs neither: its PID namespace ended with its first process.
  if (spec.killGroup) killSandbox(child.pid, helper);
  const sweep = spec.sweep ? await helper("sweep", spec.sweep) : null;
  await atMost(reading, DRAIN_GRACE_MS);
  await Promise.all([stdout.cancel(), stderr.cancel()]);
  await reading;
  // A jail made ahead that said it was ready and ended before it said it read its run (killed, or
  // its set-up failed): nothing of the run started. Without the first line, what came on stderr
  // first is not the launcher's protocol, and the run counts as started (never run twice).
  if (gate && ready && !taken) started = false;
  return await warm.outcome({
    code: status.code,
    signal: status.signal ?? null,
    timedOut: timing?.timedOut ?? false,
    waitedMs: timing?.clock.creditedMs ?? 0,
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated || stderr.truncated,
    outputBytes: stdout.total + stderr.total,
    sweep,
    warm: startWarm !== null,
    started,
  });
}

/**
 * What the clock of a run reads (see `RunClock`) through the launcher's `waited` with `args` (its
 * cgroup's); null without a cgroup, or when the helper cannot say.
 */
async function waitsOf(args: string[] | null, helper: HelperCall): Promise<RunWaits | null> {
  if (args === null) return null;
  const out = await helper("waited", args);
  const [waited, cpu, idle] = out.stdout.trim().split(" ").map(Number);
  if (!out.success || ![waited, cpu, idle].every(Number.isFinite)) return null;
  return { waited, cpu: cpu < 0 ? null : cpu, machineIdle: idle < 0 ? null : idle };
}

/**
 * Kill a sandbox's first process and its process group (when it leads one). `Deno.kill` needs
 * unrestricted run permission, which the orchestrator does not have (it may run only the
 * launcher), so the kill then goes through the launcher's `kill` mode.
 */
function killSandbox(pid: number, helper: HelperCall): void {
  for (const target of [pid, -pid]) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch (error) {
      if (
        error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
      ) {
        helper("kill", [String(pid), String(-pid)]).catch(() => {});
        return;
      }
      // Already gone, or not a group leader (a jailed child's bwrap is not).
    }
  }
}

/**
 * Wait for `promise`, at most `ms`. The timer is cleared as soon as `promise` settles: left to
 * fire, each run's two would wake this thread twice more, half a second after the run.
 */
async function atMost(promise: Promise<unknown> | undefined, ms: number): Promise<void> {
  let id: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
    id = timer;
  });
  try {
    await Promise.race([promise, late]);
  } finally {
    clearTimeout(id);
  }
}

/** Bytes a stream is read by at a time. */
const READ_BYTES = 16 * 1024;

/** Reads a stream to the end, keeping its first and last `cap / 2` bytes. */
class CappedReader {
  total = 0;
  readonly done: Promise<void>;
  readonly #reader: ReadableStreamBYOBReader;
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Uint8Array[] = [];
  #headLength = 0;
  readonly #tail: Uint8Array[] = [];
  #tailLength = 0;
  /** Markers the stream may start with that are not output (see `expect`), still to come. */
  #expect: { marker: Uint8Array; seen(): void }[];
  /** The start of the stream, held while it may still be the next marker. */
  #start: Uint8Array = new Uint8Array(0);

  /**
   * `expect`: markers the stream may start with, one after another (a jail made ahead says it is
   * ready, then that it has its run): each taken off the output and its `seen` called when it
   * comes; from the first byte that is not the next marker on, everything is output.
   */
  constructor(
    stream: ReadableStream<Uint8Array>,
    cap: number,
    expect: { marker: Uint8Array; seen(): void }[] = [],
  ) {
    this.#reader = stream.getReader({ mode: "byob" });
    this.#headCap = Math.ceil(cap / 2);
    this.#tailCap = Math.floor(cap / 2);
    this.#expect = [...expect];
    this.done = this.#pump();
  }

  get truncated(): boolean {
    return this.total > this.#headCap + this.#tailCap;
  }

  async #pump(): Promise<void> {
    // One buffer read into again and again: a default reader allocates 64 KiB per read, and that
    // churn of array buffers (about a megabyte an episode in the spawner thread) set off full
    // garbage collections there.
    let buffer = new ArrayBuffer(READ_BYTES);
    try {
      while (true) {
        const { done, value } = await this.#reader.read(new Uint8Array(buffer));
        // Ended, or cancelled after the grace period: a start held as a marker's is output.
        if (done || !value) break;
        buffer = value.buffer as ArrayBuffer;
        // Copied out: the buffer is read into again.
        if (value.length > 0) this.#take(value.slice());
      }
    } catch {
      // Cancelled after the grace period: keep what was read.
    }
    if (this.#start.length > 0) this.#add(this.#start);
  }

  /** A chunk read: output, once the markers still expected are told apart from it. */
  #take(chunk: Uint8Array): void {
    while (this.#expect.length > 0) {
      const start = concat([this.#start, chunk]);
      const { marker, seen } = this.#expect[0];
      const same = marker.subarray(0, start.length).every((byte, i) => start[i] === byte);
      if (same && start.length < marker.length) {
        this.#start = start;
        return;
      }
      this.#start = new Uint8Array(0);
      if (!same) {
        this.#expect = [];
        chunk = start;
        break;
      }
      this.#expect.shift();
      seen();
      chunk = start.subarray(marker.length);
    }
    if (chunk.length > 0) this.#add(chunk);
  }

  #add(chunk: Uint8Array): void {
    this.total += chunk.length;
    const room = this.#headCap - this.#headLength;
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.#head.push(part);
      this.#headLength += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailLength += chunk.length;
    while (this.#tail.length > 1 && this.#tailLength - this.#tail[0].length >= this.#tailCap) {
      this.#tailLength -= this.#tail.shift()!.length;
    }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  text(): string {
    let tail = concat(this.#tail);
    if (tail.length > this.#tailCap) tail = tail.subarray(tail.length - this.#tailCap);
    return cappedText(concat(this.#head), tail, this.total, this.#headCap + this.#tailCap);
  }
}
