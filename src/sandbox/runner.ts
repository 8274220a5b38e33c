/**
 * The sandboxed runner: the only way patchgym starts a process that the agent's code can
 * influence. argv only (no shell), allowlisted programs, scrubbed environment, stdin closed,
 * a wall-clock timeout that kills the whole process group, output capped while reading (head and
 * tail kept), rlimits through `prlimit`, and a bubblewrap jail when available.
 */
import { dirname } from "node:path";
import { SandboxError } from "../errors.ts";
import { CHILD_PATH, isAllowedProgram } from "./programs.ts";

/** How strongly children are isolated: `bwrap` (namespaces, read-only root) or `process` only. */
export type IsolationLevel = "bwrap" | "process";

/** What the runner can do on this machine, found once by {@linkcode probeIsolation}. */
export interface IsolationInfo {
  level: IsolationLevel;
  /** Whether rlimits are applied (through `prlimit`). */
  rlimits: boolean;
  /** Why bwrap is not used, when it is not. */
  reason?: string;
}

/** Resource limits for every child. */
export interface ResourceLimits {
  /** CPU seconds. */
  cpuSeconds: number;
  /** Address space in bytes (not applied to `deno`, whose V8 reserves far more than it uses). */
  addressSpaceBytes: number;
  /** Largest file a child may write, bytes. */
  fileSizeBytes: number;
  /** Open file descriptors. */
  openFiles: number;
  /** Processes for the user (not enforced for root). */
  processes: number;
}

/** Default limits: generous for tests, tight enough to stop fork bombs and disk floods. */
export const DEFAULT_LIMITS: ResourceLimits = {
  cpuSeconds: 60,
  addressSpaceBytes: 4 * 1024 ** 3,
  fileSizeBytes: 64 * 1024 ** 2,
  openFiles: 1024,
  processes: 512,
};

/** Configuration of a {@linkcode Runner}. */
export interface RunnerOptions {
  isolation: IsolationInfo;
  /** Paths children must not see under bwrap (task data, other workspaces, outputs, HOME). */
  hide?: string[];
  /** The `deno` executable children use for TypeScript tests. */
  denoPath?: string;
  limits?: Partial<ResourceLimits>;
}

/** One child process to run. */
export interface RunRequest {
  /** Program name from the allowlist, then its arguments. */
  argv: string[];
  /** Working directory: the workspace. It is the only writable place besides `writable`. */
  cwd: string;
  timeoutMs: number;
  /** Bytes kept per stream (half head, half tail). Default 32 KiB. */
  maxOutputBytes?: number;
  /** Extra folders the child may write (e.g. a report folder). */
  writable?: string[];
  /**
   * Paths inside the workspace the child may read but not change (under bwrap; e.g. the test files
   * during grading, so code under test cannot rewrite a test before it is loaded).
   */
  readOnly?: string[];
  /** Extra environment variables on top of the fixed scrubbed set. */
  env?: Record<string, string>;
  /** Bytes written to the child's stdin, which is then closed (default: no stdin at all). */
  stdin?: Uint8Array;
}

/** What a child did. A non-zero exit is data, not an error. */
export interface RunResult {
  argv: string[];
  exitCode: number;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Whether either stream was cut. */
  truncated: boolean;
  /** Total bytes the child wrote to stdout and stderr. */
  outputBytes: number;
  durationMs: number;
}

const DEFAULT_OUTPUT_BYTES = 32 * 1024;
/** bwrap: a read-only view of the host with fresh /dev, /proc and a private /tmp. */
const JAIL_ROOT = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
/** bwrap: own namespaces (no network), killed with its parent, no terminal to inject into. */
const JAIL_NAMESPACES = ["--unshare-all", "--die-with-parent", "--new-session"];
/** How long to wait for pipes to drain after the child is gone. */
const DRAIN_GRACE_MS = 500;

/** Runs children under the isolation found on this machine. */
export class Runner {
  readonly isolation: IsolationInfo;
  readonly #hide: string[];
  readonly #denoPath: string;
  readonly #limits: ResourceLimits;

  constructor(options: RunnerOptions) {
    this.isolation = options.isolation;
    this.#hide = options.hide ?? [];
    this.#denoPath = options.denoPath ?? Deno.execPath();
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /** Run one child; throws {@linkcode SandboxError} only when it cannot be started. */
  async run(request: RunRequest): Promise<RunResult> {
    const [program] = request.argv;
    if (!program || !isAllowedProgram(program)) {
      throw new SandboxError(`Cannot run "${program}": not an allowlisted program`);
    }
    const started = performance.now();
    const argv = this.#wrap(request);
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(argv[0], {
        args: argv.slice(1),
        cwd: request.cwd,
        env: this.#env(request),
        clearEnv: true,
        stdin: request.stdin ? "piped" : "null",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
    } catch (error) {
      throw new SandboxError(`Cannot start "${argv[0]}" for "${program}": ${String(error)}`, {
        cause: error,
      });
    }
    if (request.stdin) {
      const writer = child.stdin.getWriter();
      // A child that exits without reading its stdin must not fail the run.
      await writer.write(request.stdin).catch(() => {});
      await writer.close().catch(() => {});
    }
    const cap = request.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES;
    const stdout = new CappedReader(child.stdout, cap);
    const stderr = new CappedReader(child.stderr, cap);
    const reading = Promise.all([stdout.done, stderr.done]);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, request.timeoutMs);
    const status = await child.status;
    clearTimeout(timer);
    // Anything the child left behind in its group dies with it.
    killGroup(child.pid);
    await Promise.race([reading, delay(DRAIN_GRACE_MS)]);
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    await reading;
    return {
      argv: request.argv,
      exitCode: status.code,
      signal: status.signal ?? null,
      timedOut,
      stdout: stdout.text(),
      stderr: stderr.text(),
      truncated: stdout.truncated || stderr.truncated,
      outputBytes: stdout.total + stderr.total,
      durationMs: performance.now() - started,
    };
  }

  #program(name: string): string {
    return name === "deno" ? this.#denoPath : name;
  }

  #env(request: RunRequest): Record<string, string> {
    const home = this.isolation.level === "bwrap" ? "/tmp" : request.cwd;
    return {
      PATH: this.#denoPath.includes("/") ? `${CHILD_PATH}:${dirname(this.#denoPath)}` : CHILD_PATH,
      HOME: home,
      TMPDIR: this.isolation.level === "bwrap" ? "/tmp" : request.cwd,
      LANG: "C.UTF-8",
      LC_ALL: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      PYTHONDONTWRITEBYTECODE: "1",
      PYTHONHASHSEED: "0",
      PYTHONUNBUFFERED: "1",
      DENO_NO_UPDATE_CHECK: "1",
      DENO_NO_PROMPT: "1",
      ...request.env,
    };
  }

  #wrap(request: RunRequest): string[] {
    const [program, ...args] = request.argv;
    const command = [this.#program(program), ...args];
    const limited = this.isolation.rlimits
      ? [...this.#prlimit(program, request), ...command]
      : command;
    if (this.isolation.level !== "bwrap") return limited;
    const jail = ["bwrap", ...JAIL_ROOT];
    for (const path of this.#hide) jail.push("--tmpfs", path);
    // The deno executable may live under a hidden folder (e.g. an npm cache in HOME).
    if (program === "deno" && this.#denoPath.includes("/")) {
      jail.push("--ro-bind", this.#denoPath, this.#denoPath);
    }
    jail.push("--bind", request.cwd, request.cwd);
    for (const path of request.writable ?? []) jail.push("--bind", path, path);
    for (const path of request.readOnly ?? []) jail.push("--ro-bind", path, path);
    jail.push(...JAIL_NAMESPACES, "--chdir", request.cwd, "--");
    return [...jail, ...limited];
  }

  #prlimit(program: string, request: RunRequest): string[] {
    const limits = this.#limits;
    const cpu = Math.min(limits.cpuSeconds, Math.ceil(request.timeoutMs / 1000) + 1);
    const flags = [
      "prlimit",
      `--cpu=${cpu}`,
      `--fsize=${limits.fileSizeBytes}`,
      `--nofile=${limits.openFiles}`,
      `--nproc=${limits.processes}`,
    ];
    if (program !== "deno") flags.push(`--as=${limits.addressSpaceBytes}`);
    return [...flags, "--"];
  }
}

/**
 * Find out once what isolation this machine allows: bwrap when it can start a jail, rlimits when
 * `prlimit` runs. `wanted: "none"` skips the bwrap probe.
 */
export async function probeIsolation(
  wanted: "auto" | "bwrap" | "none" = "auto",
): Promise<IsolationInfo> {
  const rlimits = await succeeds("prlimit", ["--nofile=64", "--", "true"]);
  if (wanted === "none") {
    return { level: "process", rlimits, reason: 'isolation "none" was requested' };
  }
  const bwrapOk = await succeeds("bwrap", [...JAIL_ROOT, ...JAIL_NAMESPACES, "--", "true"]);
  if (bwrapOk) return { level: "bwrap", rlimits };
  const reason = "bwrap is not installed or cannot create namespaces here";
  if (wanted === "bwrap") {
    throw new SandboxError(
      `Cannot use bwrap isolation: ${reason}; install bubblewrap or pass --isolation auto`,
    );
  }
  return { level: "process", rlimits, reason };
}

async function succeeds(program: string, args: string[]): Promise<boolean> {
  try {
    const { success } = await new Deno.Command(program, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
      clearEnv: true,
      env: { PATH: CHILD_PATH },
    }).output();
    return success;
  } catch {
    return false;
  }
}

function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // The group is already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const id = setTimeout(resolve, ms);
    Deno.unrefTimer(id);
  });
}

/** Reads a stream to the end, keeping its first and last `cap / 2` bytes. */
class CappedReader {
  total = 0;
  readonly done: Promise<void>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Uint8Array[] = [];
  #headLength = 0;
  readonly #tail: Uint8Array[] = [];
  #tailLength = 0;

  constructor(stream: ReadableStream<Uint8Array>, cap: number) {
    this.#reader = stream.getReader();
    this.#headCap = Math.ceil(cap / 2);
    this.#tailCap = Math.floor(cap / 2);
    this.done = this.#pump();
  }

  get truncated(): boolean {
    return this.total > this.#headCap + this.#tailCap;
  }

  async #pump(): Promise<void> {
    try {
      while (true) {
        const { done, value } = await this.#reader.read();
        if (done) return;
        this.#add(value);
      }
    } catch {
      // Cancelled after the grace period: keep what was read.
    }
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
    const decoder = new TextDecoder();
    const head = decoder.decode(concat(this.#head));
    let tail = concat(this.#tail);
    if (tail.length > this.#tailCap) {
      tail = tail.subarray(tail.length - this.#tailCap);
    }
    const omitted = this.total - this.#headLength - tail.length;
    if (omitted <= 0) return head + decoder.decode(tail);
    return `${head}\n[... ${omitted} bytes omitted: output capped at ${
      this.#headCap + this.#tailCap
    } bytes, first and last parts kept ...]\n${decoder.decode(tail)}`;
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
