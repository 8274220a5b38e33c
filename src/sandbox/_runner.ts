/**
 * The compiled launcher's `runs` mode as one long-lived process per thread: each run's spawn,
 * stdin, capped reads of both streams, wait, group kill and cgroup sweep happen there, in C, and
 * the thread sends one request and reads one answer (see `patchgym_launch.c`). Without it every run
 * cost the orchestrator a spawn (whose wait for the child's exec blocks a thread: hence the
 * spawner thread), three pipes and a read per write of the child, all on its own CPU. The run's
 * clock, its kill and the warm interpreter's part stay here (`_child.ts`): they need the pid, which
 * the server says first. Bytes that never change (`shared`, the reporter's source) are sent once
 * and named after that. A run the server cannot take (it could not start, or it ended) runs as
 * before. Private to `src/sandbox/`.
 */
import { concat } from "../bytes.ts";
import { holdWhile, readFrames, startServer } from "./_helper.ts";
import type { ShOutput } from "./_launch.ts";
import { cappedText } from "./_capped.ts";
import type { ChildSpec } from "./_child.ts";

/** What the server says of a run once it ended: its status and output, before the clock's part. */
export interface ServedEnd {
  code: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  outputBytes: number;
  sweep: ShOutput | null;
  /** What a jail made ahead said first on stderr (taken off it): that it was ready, that it read its run. */
  markers: { ready: boolean; taken: boolean };
}

/** A run the server started. */
export interface ServedRun {
  /**
   * The launcher's pid once it exec'd; rejects when it could not be started (with
   * {@linkcode ServerGone} when the server ended before it took the run).
   */
  pid: Promise<number>;
  /** Settles once the launcher's process is reaped (or the run failed): its pid is free. */
  exited: Promise<void>;
  /** The run's end; rejects when the server ended before it answered. */
  end: Promise<ServedEnd>;
}

/** A jail made ahead that the server started (`spec.ahead`; the launcher's `await` step). */
export interface ServedAhead extends ServedRun {
  /** Settles once the jail is made and waits for its run. */
  ready: Promise<void>;
  /** Give the jail its run, or null: none is needed (its stdin closes with nothing on it). Once. */
  go(run: Uint8Array | null): void;
}

/** How many blobs a server keeps at most (its table holds 64). */
const MOST_BLOBS = 32;
/** Bytes an answer's chunk holds at most (a write to a pipe is atomic up to this). */
const PIPE_BUF = 4096;
/** A chunk's first line (see `runs_answer`). */
const CHUNK_HEAD = /^(\d{1,20}) (pid|ready|exit|more|end|fail) (\d{1,4})$/;

/** The server ended before it took a run: nothing of the run started, and it may go another way. */
export class ServerGone extends Error {}

interface Pending {
  /** The run's output cap, per stream. */
  cap: number;
  parts: Uint8Array[];
  pid(pid: number): void;
  ready(): void;
  exit(): void;
  end(end: ServedEnd): void;
  /** `gone`: the server ended (rather than said the run failed). */
  fail(message: string, gone?: boolean): void;
}

/** The launcher's `runs` process, started on the first run. */
export class RunServer {
  readonly #launcher: string;
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #broken = false;
  #next = 1;
  readonly #waiting = new Map<string, Pending>();
  /** Bytes sent once, by their buffer: the blob's id. */
  readonly #blobs = new WeakMap<ArrayBufferLike, number>();
  #blobCount = 0;
  readonly #encoder = new TextEncoder();

  constructor(launcher: string) {
    this.#launcher = launcher;
  }

  /** Whether the server is gone (or never started): runs go the other way. */
  get broken(): boolean {
    return this.#broken;
  }

  /** The server's pid once it started (it may have ended since); null before. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /**
   * Whether runs like `spec` are the server's: the launcher's own, cold and warm, in the caller's
   * process group (`detached` is Deno's), and not made ahead (those are {@linkcode ahead}'s).
   */
  takes(spec: ChildSpec): boolean {
    return this.#launchers(spec) && !spec.ahead;
  }

  /** Whether jails made ahead like `spec` are the server's (the launcher's own, no stdin). */
  takesAhead(spec: ChildSpec): boolean {
    return this.#launchers(spec) && spec.ahead === true && spec.stdin === null && !spec.warm;
  }

  #launchers(spec: ChildSpec): boolean {
    const launcher = (argv: string[] | undefined) => !argv || argv[0] === this.#launcher;
    return launcher(spec.argv) && launcher(spec.warm?.argv) && !spec.detached;
  }

  /**
   * Start `spec`'s run with `argv` (whose first element is this launcher); null when the server
   * cannot take it, and the run goes the other way.
   */
  start(spec: ChildSpec, argv: string[]): ServedRun | null {
    if (!this.takes(spec) || argv[0] !== this.#launcher) return null;
    return this.#begin("run", spec, argv);
  }

  /** Start `spec`'s jail made ahead; null when the server cannot take it. */
  ahead(spec: ChildSpec): ServedAhead | null {
    if (!this.takesAhead(spec)) return null;
    const ready = Promise.withResolvers<void>();
    const served = this.#begin("ahead", spec, spec.argv, ready.resolve);
    if (!served) return null;
    const { id } = served;
    let given = false;
    return {
      ...served,
      ready: ready.promise,
      go: (run) => {
        if (given || !this.#writer) return;
        given = true;
        const bytes = run ?? new Uint8Array(0);
        this.#send(concat([this.#encoder.encode(`${id} go ${bytes.length}\n`), bytes]));
      },
    };
  }

  #begin(
    kind: "run" | "ahead",
    spec: ChildSpec,
    argv: string[],
    ready: () => void = () => {},
  ): (ServedRun & { id: string }) | null {
    if (this.#broken || !this.#start()) return null;
    const id = String(this.#next++);
    const pid = Promise.withResolvers<number>();
    const exited = Promise.withResolvers<void>();
    const end = Promise.withResolvers<ServedEnd>();
    // A run that fails before its pid never started: its end is never awaited.
    end.promise.catch(() => {});
    let started = false;
    this.#waiting.set(id, {
      cap: spec.cap,
      parts: [],
      pid: (value) => (started = true, pid.resolve(value)),
      ready,
      exit: exited.resolve,
      end: (value) => (exited.resolve(), end.resolve(value)),
      fail: (message, gone = false) => {
        if (!started) pid.reject(gone ? new ServerGone(message) : new Error(message));
        exited.resolve();
        end.reject(new Error(message));
      },
    });
    holdWhile(this.#child, true);
    const { order, inline } = stdinParts(spec.stdin ?? [], (part) => this.#blob(part));
    const fields = [
      spec.cwd,
      String(spec.cap),
      spec.killGroup ? "1" : "0",
      // A jail made ahead reads its run on stdin.
      spec.stdin || kind === "ahead" ? "1" : "0",
      ...counted(order),
      ...counted(argv),
      ...counted(environment(spec.env)),
      ...counted(spec.sweep ?? []),
    ];
    // A NUL in a field would end it early and shift every field after it (an argument could name
    // the environment, or the sweep, of a root process). A spawn refuses one: so does a run here.
    if (fields.some((field) => field.includes("\0"))) {
      this.#waiting.get(id)!.fail("a NUL in an argument, the environment or the folder");
      this.#waiting.delete(id);
      holdWhile(this.#child, this.#waiting.size > 0);
      return { id, pid: pid.promise, exited: exited.promise, end: end.promise };
    }
    const head = this.#encoder.encode(fields.map((field) => `${field}\0`).join(""));
    const length = inline.reduce((sum, part) => sum + part.length, head.length);
    this.#send(concat([this.#encoder.encode(`${id} ${kind} ${length}\n`), head, ...inline]), id);
    return { id, pid: pid.promise, exited: exited.promise, end: end.promise };
  }

  /** Stop the server (it also stops when this thread ends); runs under way still answer. */
  close(): void {
    this.#broken = true;
    this.#writer?.close().catch(() => {});
    this.#writer = null;
  }

  /** The id of `part` as a blob the server has (sent now, the first time), or null: inline. */
  #blob(part: Uint8Array): number | null {
    const buffer = part.buffer;
    // Only bytes that never change once made (`shared`), whole.
    if (!(buffer instanceof SharedArrayBuffer) || part.byteLength !== buffer.byteLength) {
      return null;
    }
    const known = this.#blobs.get(buffer);
    if (known !== undefined) return known;
    if (this.#blobCount >= MOST_BLOBS) return null;
    const id = this.#next++;
    this.#blobCount++;
    this.#blobs.set(buffer, id);
    this.#send(concat([this.#encoder.encode(`${id} blob ${part.length}\n`), part.slice()]));
    return id;
  }

  /** Send a request; where it cannot go (the server ended), the run waiting for `id` fails. */
  #send(bytes: Uint8Array, id: string | null = null): void {
    this.#writer!.write(bytes).catch(() => {
      this.close();
      const pending = id === null ? undefined : this.#waiting.get(id);
      this.#waiting.delete(id ?? "");
      pending?.fail("the run server ended", true);
    });
  }

  #start(): boolean {
    if (this.#child) return !this.#broken;
    this.#child = startServer(this.#launcher, "runs");
    if (!this.#child) {
      this.#broken = true;
      return false;
    }
    this.#writer = this.#child.stdin.getWriter();
    // Runs under way are still answered (their processes hold the pipe); new ones go the other way.
    this.#read(this.#child.stdout).finally(() => this.#fail());
    this.#child.status.then(() => this.close(), () => this.close());
    return true;
  }

  #fail(): void {
    this.close();
    for (const pending of this.#waiting.values()) pending.fail("the run server ended", true);
    this.#waiting.clear();
    holdWhile(this.#child, false);
  }

  /** Reads answers, in chunks: `ID KIND LENGTH\n` and LENGTH bytes (see `runs_answer`). */
  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    await readFrames(stream, {
      head: CHUNK_HEAD,
      length: ([, , , bytes]) => Number(bytes),
      room: 16 * PIPE_BUF,
      take: ([, id, kind], body) => {
        const pending = this.#waiting.get(id);
        if (!pending) return;
        if (kind === "more") pending.parts.push(body);
        else if (kind === "pid") pending.pid(Number(decoder.decode(body)));
        else if (kind === "exit") pending.exit();
        else if (kind === "ready") pending.ready();
        else {
          this.#waiting.delete(id);
          holdWhile(this.#child, this.#waiting.size > 0);
          // A failure is one chunk of its own (the server's, after a run's process that died part
          // way through its answer): what came before it is not part of it.
          if (kind === "fail") pending.fail(decoder.decode(body));
          else pending.end(endOf(concat([...pending.parts, body]), pending.cap, decoder));
        }
      },
    });
  }
}

/** `env` as NAME=VALUE, in the order of the names (as Deno gives a child its environment). */
function environment(env: Record<string, string>): string[] {
  return Object.keys(env).sort((a, b) => a < b ? -1 : a > b ? 1 : 0).map((name) =>
    `${name}=${env[name]}`
  );
}

/** A count, then the fields. */
function counted(fields: string[]): string[] {
  return [String(fields.length), ...fields];
}

/** A run's end from the server's answer (see `run_one`); `cap`: the run's, per stream. */
function endOf(bytes: Uint8Array, cap: number, decoder: TextDecoder): ServedEnd {
  const line = bytes.indexOf(10);
  const numbers = decoder.decode(bytes.subarray(0, line)).split(" ").map(Number);
  const [code, signal, outTotal, outHead, outTail, errTotal, errHead, errTail, sweep] = numbers;
  const [sweepOut, sweepErr, ready, taken] = numbers.slice(9);
  let at = line + 1;
  const take = (length: number) => bytes.subarray(at, at += length);
  const stdout = cappedText(take(outHead), take(outTail), outTotal, cap);
  const stderr = cappedText(take(errHead), take(errTail), errTotal, cap);
  const [sweepText, sweepErrors] = [take(sweepOut), take(sweepErr)];
  return {
    code,
    signal: signal === 0 ? null : SIGNALS[signal] ?? `SIG${signal}`,
    stdout,
    stderr,
    truncated: outTotal > cap || errTotal > cap,
    outputBytes: outTotal + errTotal,
    sweep: sweep < 0 ? null : {
      success: sweep === 0,
      stdout: decoder.decode(sweepText),
      stderr: decoder.decode(sweepErrors),
    },
    markers: { ready: ready === 1, taken: taken === 1 },
  };
}

/** Linux's signal numbers, by the names Deno gives a child's status. */
const SIGNALS: Record<number, string> = Object.fromEntries(
  [
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS",
  ].map((name, i) => [i + 1, name]),
);

/**
 * `stdin` as a run request names it (see `runs` in `patchgym_launch.c`): `order`, each part's blob
 * id (`blob`: the server's id for a part it keeps, or null) and "-" once, where the request's own
 * bytes go, and those bytes, `inline`. They are one piece, so a part that could be a blob but lies
 * between two that cannot goes inline too. A Python test run's stdin is a small head of its own
 * and then the reporter, the same every run: the head goes inline, the reporter is named.
 */
export function stdinParts(
  stdin: readonly Uint8Array[],
  blob: (part: Uint8Array) => number | null,
): { order: string[]; inline: Uint8Array[] } {
  const ids = stdin.map(blob);
  // The inline piece: from the first part that is no blob to the last (none: empty, at the end).
  const none = !ids.includes(null);
  const from = none ? ids.length : ids.indexOf(null);
  const to = none ? ids.length : ids.lastIndexOf(null) + 1;
  return {
    order: [...ids.slice(0, from), "-", ...ids.slice(to)].map(String),
    inline: stdin.slice(from, to),
  };
}

const servers = new Map<string, RunServer>();
/**
 * This thread's run server for `launcher` (made once per launcher), or null: there is none (the
 * `sh` fallback), or it ended, and runs go the other way. One that could not start (out of open
 * files, say) is tried again at the next run.
 */
export function runServerFor(launcher: string | null): RunServer | null {
  if (!launcher) return null;
  let server = servers.get(launcher);
  if (!server || (server.broken && server.pid === null)) {
    server = new RunServer(launcher);
    servers.set(launcher, server);
  }
  return server.broken ? null : server;
}

/** Stop this thread's run servers (each starts again on its next run; runs under way end first). */
export function closeRunServers(): void {
  for (const server of servers.values()) server.close();
  servers.clear();
}
