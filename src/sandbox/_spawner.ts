/**
 * Spawns off the caller's event loop. `Deno.Command#spawn` blocks its thread until the child has
 * exec'd (`posix_spawn`), which on an oversubscribed machine took over a second: a stall of every
 * episode on that thread and of the records it writes. So each thread that runs sandboxes hands its
 * children and helper requests to a spawner thread of its own (a Deno worker, with the process's
 * permissions), which starts them, reads their capped output and returns the result by message;
 * the thread ends after 10 s without work, so it does not keep the process alive. Where no
 * worker can start (no read permission for its module), children run in the caller's thread with
 * one-shot helpers, as before.
 *
 * With a compiled launcher, runs go to this thread's `runs` server instead (`_runner.ts`), which
 * spawns them in C, and helper requests to this thread's `serve` process: nothing is spawned here
 * per run (nor per jail made ahead), so no spawner thread is needed but for what the server does
 * not take (children that are not the launcher's). Those servers stop after the same idle time.
 * Private to `src/sandbox/`.
 */
import { type ChildResult, type ChildSpec, runChild } from "./_child.ts";
import { closeHelpers, helperFor, type ServedMode } from "./_helper.ts";
import { LAUNCH_FAILED, type Launcher, runHelper, type ShOutput } from "./_launch.ts";
import { closeRunServers, runServerFor } from "./_runner.ts";
import { closeIdleZygotes } from "./_zygote.ts";
import { roomForThread } from "../threads.ts";

/** What the owner sends the spawner thread. */
export type SpawnerRequest =
  | { kind: "init"; launcher: Launcher; idleMs: number }
  | { kind: "run"; id: number; spec: ChildSpec }
  | { kind: "helper"; id: number; mode: ServedMode; args: string[] }
  /** The run of a jail made ahead (`run` of a `spec.ahead`), or null: it is not needed. */
  | { kind: "go"; id: number; run: Uint8Array | null };

/** What the spawner thread answers: one reply per request, or that it is idle. */
export type SpawnerReply =
  | { id: number; ok: true; result: ChildResult }
  | { id: number; ok: true; output: ShOutput }
  | { id: number; ok: false; message: string }
  /** A jail made ahead is ready for its run (before the run's own reply). */
  | { kind: "ready"; id: number }
  | { kind: "idle" };

/** A jail made ahead of its run (see `ChildSpec.ahead`), as its owner holds it. */
export interface AheadChild {
  /** The run's result; `started` is false when no run came or the jail ended before it. */
  result: Promise<ChildResult>;
  /** Settles once the jail waits for its run (never, when it failed before). */
  ready: Promise<void>;
  /** Give the jail its run (what the launcher's `await` step reads). */
  go(run: Uint8Array): void;
  /** End the jail unused. */
  cancel(): void;
}

const MODULE = new URL("./_spawner_worker.ts", import.meta.url);
/** The spawner thread's module as a file path, or null where it is not a file. */
const MODULE_PATH = MODULE.protocol === "file:" ? decodeURIComponent(MODULE.pathname) : null;
/**
 * How long the spawner thread waits without work before it ends: a new one costs loading its
 * modules and starting the launcher's `serve` process again (the bench's 1 s model left gaps of
 * over a second between runs, and a 1 s wait restarted it several times a batch). `main.ts` ends
 * with `Deno.exit`, so the wait never holds a command's exit back.
 */
const IDLE_MS = 10_000;

/** Runs children and helper requests on a spawner thread for one launcher. */
export class Spawner {
  readonly #launcher: Launcher;
  #worker: Worker | null = null;
  /** Set when the thread failed (its module could not load): requests run here from then on. */
  #failed = false;
  #next = 1;
  readonly #waiting = new Map<number, (reply: SpawnerReply | null) => void>();
  /** Jails made ahead that have not said they are ready, by request id. */
  readonly #readied = new Map<number, () => void>();

  readonly #idleMs: number;

  constructor(launcher: Launcher, options: { idleMs?: number } = {}) {
    this.#launcher = launcher;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Whether the spawner thread is running now. */
  get threadRunning(): boolean {
    return this.#worker !== null;
  }

  /** Run one child (see `runChild`); throws when its launcher cannot be spawned. */
  async run(spec: ChildSpec): Promise<ChildResult> {
    const server = runServerFor(this.#launcher);
    if (hostedHere || server?.takes(spec)) {
      return await this.#here(() => runChild(spec, helperFor(this.#launcher), null, server));
    }
    const reply = await this.#send((id) => ({ kind: "run", id, spec }));
    if (!reply) return await runChild(spec, (mode, args) => runHelper(this.#launcher, mode, args));
    return resultOf(reply);
  }

  /**
   * Start a jail made ahead of its run (`spec.ahead`). Its `result` rejects where {@linkcode run}
   * throws, and when the spawner thread failed after the run was given (part of it may have run).
   */
  ahead(spec: ChildSpec): AheadChild {
    const { promise: ready, resolve: seen } = Promise.withResolvers<void>();
    const server = runServerFor(this.#launcher);
    const here = hostedHere || (server?.takesAhead(spec) ?? false);
    const worker = here ? null : this.#start();
    if (!worker) {
      // Here: this thread's run server and helpers (a pool worker's, or any thread's with the
      // compiled launcher), else one-shot processes.
      const { promise: run, resolve: go } = Promise.withResolvers<Uint8Array | null>();
      const helper = here
        ? helperFor(this.#launcher)
        : (mode: ServedMode, args: string[]) => runHelper(this.#launcher, mode, args);
      const gate = { run, ready: () => seen() };
      const result = here
        ? this.#here(() => runChild(spec, helper, gate, server))
        : runChild(spec, helper, gate);
      return { result, ready, go, cancel: () => go(null) };
    }
    const id = this.#next++;
    this.#readied.set(id, seen);
    let sent = false;
    const result = new Promise<SpawnerReply | null>((resolve) => this.#waiting.set(id, resolve))
      .then((reply) => {
        this.#readied.delete(id);
        if (reply) return resultOf(reply);
        // The thread failed before its run was given: nothing of it started.
        if (!sent) return notStarted;
        throw new Error("the spawner thread failed");
      });
    worker.postMessage({ kind: "run", id, spec } satisfies SpawnerRequest);
    const send = (run: Uint8Array | null) => {
      sent ||= run !== null;
      if (this.#worker === worker) {
        worker.postMessage({ kind: "go", id, run } satisfies SpawnerRequest);
      }
    };
    return { result, ready, go: send, cancel: () => send(null) };
  }

  /** Run a helper mode (through the launcher's `serve` process when there is one). */
  async helper(mode: ServedMode, args: string[]): Promise<ShOutput> {
    if (hostedHere || runServerFor(this.#launcher)) {
      return await this.#here(() => helperFor(this.#launcher)(mode, args));
    }
    const reply = await this.#send((id) => ({ kind: "helper", id, mode, args }));
    if (!reply) return await runHelper(this.#launcher, mode, args);
    if ("ok" in reply && reply.ok && "output" in reply) return reply.output;
    return { success: false, stdout: "", stderr: "ok" in reply && !reply.ok ? reply.message : "" };
  }

  /**
   * `work` in this thread, with its servers (`runs`, `serve`, warm interpreters); once this
   * thread has had none for the idle time, they are stopped, as a spawner thread's end stops its.
   */
  async #here<T>(work: () => Promise<T>): Promise<T> {
    busyHere++;
    clearTimeout(idleHere);
    try {
      return await work();
    } finally {
      if (--busyHere === 0) {
        const timer = setTimeout(closeServersHere, this.#idleMs);
        Deno.unrefTimer(timer);
        idleHere = timer;
      }
    }
  }

  /** The reply to a request, or null when it must run in this thread (no spawner thread). */
  async #send(make: (id: number) => SpawnerRequest): Promise<SpawnerReply | null> {
    const worker = this.#start();
    if (!worker) return null;
    const id = this.#next++;
    const reply = new Promise<SpawnerReply | null>((resolve) => this.#waiting.set(id, resolve));
    worker.postMessage(make(id));
    return await reply;
  }

  #start(): Worker | null {
    if (this.#worker) return this.#worker;
    if (this.#failed || !workerAllowed()) return null;
    // Out of open files (a server at its limit), a new worker would end the process: this request
    // runs here, and a later one starts the thread.
    if (MODULE_PATH !== null && !roomForThread(MODULE_PATH)) return null;
    let worker: Worker;
    try {
      worker = new Worker(MODULE, { type: "module", name: "patchgym-spawner" });
    } catch {
      return null;
    }
    worker.onmessage = (event: MessageEvent<SpawnerReply>) => {
      const reply = event.data;
      if ("kind" in reply && reply.kind === "ready") {
        this.#readied.get(reply.id)?.();
        this.#readied.delete(reply.id);
        return;
      }
      if ("kind" in reply) {
        // Idle, and nothing asked meanwhile: end it (its helper process dies with it).
        if (this.#waiting.size === 0 && this.#worker === worker) {
          worker.terminate();
          this.#worker = null;
        }
        return;
      }
      const resolve = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      resolve?.(reply);
    };
    // The thread catches every request's error, so this is its module failing to load (a compiled
    // binary without it): what was sent to it runs here instead, and so does everything after.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      this.#failed = true;
      if (this.#worker === worker) this.#worker = null;
      for (const resolve of this.#waiting.values()) resolve(null);
      this.#waiting.clear();
    };
    worker.postMessage(
      { kind: "init", launcher: this.#launcher, idleMs: this.#idleMs } satisfies SpawnerRequest,
    );
    this.#worker = worker;
    return worker;
  }
}

/** A run's result from its reply; throws what the spawner thread said went wrong. */
function resultOf(reply: SpawnerReply): ChildResult {
  if ("ok" in reply && reply.ok && "result" in reply) return reply.result;
  throw new Error("ok" in reply && !reply.ok ? reply.message : "the spawner thread failed");
}

/** The result of a jail made ahead that was never spawned. */
const notStarted: ChildResult = {
  code: LAUNCH_FAILED,
  signal: null,
  timedOut: false,
  waitedMs: 0,
  stdout: "",
  stderr: "",
  truncated: false,
  outputBytes: 0,
  sweep: null,
  warm: false,
  started: false,
};

/** Whether this process may start the spawner thread (it needs to read its module). */
function workerAllowed(): boolean {
  if (MODULE_PATH === null) return true;
  try {
    return Deno.permissions.querySync({ name: "read", path: MODULE_PATH }).state === "granted";
  } catch {
    return false;
  }
}

/** Runs and helper requests under way in this thread itself, and the timer that ends its servers. */
let busyHere = 0;
let idleHere: ReturnType<typeof setTimeout> | undefined;

/** Stop the servers this thread keeps (each starts again when needed). */
function closeServersHere(): void {
  closeRunServers();
  closeHelpers();
  closeIdleZygotes();
}

/** Set by {@linkcode hostSpawnsHere}: this thread spawns its own children, with a `serve` helper. */
let hostedHere = false;

/**
 * From now on this thread runs its children and helper requests itself, with the launcher's
 * `serve` process as its helper (made once, as a spawner thread makes it), and starts no spawner
 * thread: for a thread that does nothing but run episodes (a rollout pool's worker), where a
 * spawn's wait for the child's exec stalls only that thread's own episodes, not the thread that
 * writes records, and a second thread per thread would cost an isolate and two messages a request.
 */
export function hostSpawnsHere(): void {
  hostedHere = true;
}

const spawners = new Map<string, Spawner>();
/** This thread's spawner for `launcher` (null: the `sh` fallback). */
export function spawnerFor(launcher: Launcher): Spawner {
  const key = launcher ?? "";
  let spawner = spawners.get(key);
  if (!spawner) {
    spawner = new Spawner(launcher);
    spawners.set(key, spawner);
  }
  return spawner;
}
