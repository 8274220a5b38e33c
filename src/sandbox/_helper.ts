/**
 * The compiled launcher's `serve` mode as one long-lived process per thread: the cgroup sweep after
 * every run, the workspace mounts and unmounts and the kills go to it as request lines instead of
 * a process each (see `patchgym_launch.c`). It dies with the thread that started it and when its
 * stdin closes; a request it cannot take (it died, or an argument holds a tab, a newline or a NUL,
 * which a request line cannot carry) runs as the one-shot helper mode of `_launch.ts` instead, with
 * the same arguments and output. Without a compiled launcher every helper call is the one-shot `sh`
 * script. Private to `src/sandbox/`.
 */
import { concat } from "../bytes.ts";
import { type HelperMode, type Launcher, runHelper, type ShOutput } from "./_launch.ts";
import { CHILD_PATH } from "./programs.ts";

/** The helper modes `serve` answers. */
export type ServedMode = Extract<
  HelperMode,
  "sweep" | "mount-workspace" | "umount" | "kill" | "waited"
>;

/** The launcher's `serve` process, started on the first request. */
export class HelperProcess {
  readonly #launcher: string;
  #child: Deno.ChildProcess | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #broken = false;
  #next = 1;
  readonly #waiting = new Map<string, (out: ShOutput) => void>();
  readonly #encoder = new TextEncoder();

  constructor(launcher: string) {
    this.#launcher = launcher;
  }

  /** Run `mode` with `args` in the server (or, when it cannot, as a process of its own). */
  async request(mode: ServedMode, args: string[]): Promise<ShOutput> {
    if (this.#broken || args.some((a) => /[\t\n\0]/.test(a)) || !this.#start()) {
      return await runHelper(this.#launcher, mode, args);
    }
    const id = String(this.#next++);
    const answered = new Promise<ShOutput>((resolve) => this.#waiting.set(id, resolve));
    holdWhile(this.#child, true);
    try {
      await this.#writer!.write(this.#encoder.encode(`${[id, mode, ...args].join("\t")}\n`));
    } catch {
      this.#waiting.delete(id);
      this.#fail();
      return await runHelper(this.#launcher, mode, args);
    }
    const out = await answered;
    // The server went away before answering: the one-shot mode does the same work.
    return out === GONE ? await runHelper(this.#launcher, mode, args) : out;
  }

  /** The server's pid once it started (it may have ended since); null before. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  /** Stop the server (it also stops when this thread ends). */
  close(): void {
    this.#broken = true;
    this.#writer?.close().catch(() => {});
    this.#writer = null;
  }

  #start(): boolean {
    if (this.#child) return true;
    this.#child = startServer(this.#launcher, "serve");
    if (!this.#child) {
      this.#broken = true;
      return false;
    }
    this.#writer = this.#child.stdin.getWriter();
    this.#read(this.#child.stdout).finally(() => this.#fail());
    this.#child.status.catch(() => {});
    return true;
  }

  #fail(): void {
    // The server then reads the end of its input and exits.
    this.close();
    for (const resolve of this.#waiting.values()) resolve(GONE);
    this.#waiting.clear();
    holdWhile(this.#child, false);
  }

  /** Reads answers: `ID STATUS OUTLEN ERRLEN\n`, then the output and the messages. */
  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    await readFrames(stream, {
      head: ANSWER_HEAD,
      length: ([, , , out, err]) => Number(out) + Number(err),
      room: PIPE_BUF,
      take: ([, id, status, outLength], body) => {
        const resolve = this.#waiting.get(id);
        this.#waiting.delete(id);
        holdWhile(this.#child, this.#waiting.size > 0);
        resolve?.({
          success: status === "0",
          stdout: decoder.decode(body.subarray(0, Number(outLength))),
          stderr: decoder.decode(body.subarray(Number(outLength))),
        });
      },
    });
  }
}

/** Bytes the kernel writes to a pipe at once: the most an answer holds. */
const PIPE_BUF = 4096;

/** An answer's first line: `ID STATUS OUTLEN ERRLEN`, the whole answer within PIPE_BUF (4096). */
const ANSWER_HEAD = /^(\d{1,20}) (\d{1,3}) (\d{1,4}) (\d{1,4})$/;

/** The answer a request gets when the server is gone. */
const GONE: ShOutput = { success: false, stdout: "", stderr: "" };

/**
 * Whether `child` (a server a thread keeps: `serve`, `runs`, a warm interpreter) keeps the thread
 * alive: only while a request waits on it, so a command exits once its own work is done.
 */
export function holdWhile(child: Deno.ChildProcess | null, waiting: boolean): void {
  try {
    if (waiting) child?.ref();
    else child?.unref();
  } catch {
    // Its process has ended and been reaped: nothing holds the thread.
  }
}

/**
 * Start the launcher's long-lived `mode` (`serve`, `runs`): with no environment but the children's
 * PATH, its answers on stdout, not keeping the thread alive (see {@linkcode holdWhile}). Null when
 * it cannot be spawned.
 */
export function startServer(launcher: string, mode: "serve" | "runs"): Deno.ChildProcess | null {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(launcher, {
      args: [mode],
      cwd: "/",
      clearEnv: true,
      env: { PATH: CHILD_PATH },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
  } catch {
    return null;
  }
  child.unref();
  return child;
}

/** How a server's answers are framed (see {@linkcode readFrames}). */
export interface Frames {
  /** The head line of an answer (at most 48 bytes, its newline included). */
  head: RegExp;
  /** The length of what follows the head line. */
  length(head: RegExpMatchArray): number;
  /** The bytes read at once. */
  room: number;
  /** Called with each answer. */
  take(head: RegExpMatchArray, body: Uint8Array): void;
}

/**
 * Read a server's answers from `stream`, as `frames` says they are framed. Returns at the end of
 * the stream, or at the first bytes that are no answer (the pipe is no longer trusted: what waits
 * on it fails), letting go of the pipe.
 */
export async function readFrames(
  stream: ReadableStream<Uint8Array>,
  frames: Frames,
): Promise<void> {
  const { head, length, room, take } = frames;
  const decoder = new TextDecoder();
  let buffer: Uint8Array = new Uint8Array(0);
  // One buffer read into again and again (see `CappedReader` in `_child.ts`).
  const reader = stream.getReader({ mode: "byob" });
  let into = new ArrayBuffer(room);
  try {
    while (true) {
      const { done, value } = await reader.read(new Uint8Array(into));
      if (done || !value) return;
      into = value.buffer as ArrayBuffer;
      // Copied out: the buffer is read into again.
      const chunk = value.slice();
      buffer = buffer.length === 0 ? chunk : concat([buffer, chunk]);
      while (true) {
        const end = buffer.subarray(0, HEAD_MOST).indexOf(10);
        if (end < 0) {
          if (buffer.length >= HEAD_MOST) return;
          break;
        }
        const match = decoder.decode(buffer.subarray(0, end)).match(head);
        if (!match) return;
        const total = end + 1 + length(match);
        if (buffer.length < total) break;
        const body = buffer.subarray(end + 1, total);
        buffer = buffer.subarray(total);
        take(match, body);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The longest head line of an answer, its newline included. */
const HEAD_MOST = 48;

/** How a thread runs helper modes: through its `serve` process, or one-shot through `sh`. */
export type HelperCall = (mode: ServedMode, args: string[]) => Promise<ShOutput>;

const servers = new Map<string, HelperProcess>();
/** This thread's way to run helper modes with `launcher` (the server is made once per launcher). */
export function helperFor(launcher: Launcher): HelperCall {
  if (!launcher) return (mode, args) => runHelper(null, mode, args);
  let server = servers.get(launcher);
  if (!server) {
    server = new HelperProcess(launcher);
    servers.set(launcher, server);
  }
  const chosen = server;
  return (mode, args) => chosen.request(mode, args);
}

/** Stop this thread's `serve` processes (each starts again on its next request). */
export function closeHelpers(): void {
  for (const server of servers.values()) server.close();
  servers.clear();
}
