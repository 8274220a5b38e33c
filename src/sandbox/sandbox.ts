/**
 * The sandbox: the only way patchgym starts a process that the agent's code can
 * influence. argv only (no shell), allowlisted programs, scrubbed environment, stdin closed,
 * a wall-clock timeout that kills the whole sandbox, output capped while reading (head and tail
 * kept), rlimits, per-sandbox pids and memory caps through cgroups, and a bubblewrap jail (a mount
 * allowlist, a non-root uid in its own user namespace) when available.
 *
 * Every child starts as a small launcher (`sh`, see `_launch.ts`) that joins the sandbox's cgroups,
 * sets the rlimits with its own `ulimit` and then execs `setsid` (own session, no jail) or `bwrap`
 * (own PID namespace), so no child needs Deno's `detached: true`, which forks the whole
 * orchestrator for every spawn.
 */
import { dirname } from "node:path";
import { SandboxError } from "../errors.ts";
import { jailLaunchScript, LAUNCH_SCRIPT, runSh } from "./_launch.ts";
import { type CapsHit, type CgroupSupport, probeCgroups, sandboxCgroup } from "./cgroup.ts";
import {
  findProgram,
  mountArgs,
  type MountPlan,
  planMounts,
  pythonLibraryPaths,
} from "./mounts.ts";
import { CHILD_PATH, isAllowedProgram } from "./programs.ts";

/** How strongly children are isolated: `bwrap` (namespaces, mount allowlist) or `process` only. */
export type IsolationLevel = "bwrap" | "process";

/** What the sandbox can do on this machine, found once by {@linkcode probeIsolation}. */
export interface IsolationInfo {
  level: IsolationLevel;
  /** Whether rlimits are applied (the launcher's `ulimit`). */
  rlimits: boolean;
  /** Why bwrap is not used, when it is not. */
  reason?: string;
  /** Where per-sandbox cgroups (pids and memory caps) are made; null when not possible here. */
  cgroup: CgroupSupport | null;
  /** Why there are no per-sandbox cgroups, when there are none. */
  cgroupReason?: string;
  /** The jail's runtime mounts (bwrap only). */
  mounts: MountPlan | null;
  /** Whether `setsid` gives unjailed children their own session (else `detached: true`). */
  setsid: boolean;
  /** Whether patchgym runs as root (then `RLIMIT_NPROC` does not apply to its children). */
  hostRoot: boolean;
}

/** What holds for children, in words a trajectory or `doctor` can carry. */
export interface SandboxSummary {
  level: IsolationLevel;
  /** `allowlist`: only the runtime and the workspace are mounted; `host`: the host as is. */
  filesystem: "allowlist" | "host";
  /** `unprivileged`: a non-root uid without capabilities; `host_user`: the user patchgym runs as. */
  uid: "unprivileged" | "host_user";
  /** `cgroup`: per sandbox; `rlimit`: per user, not enforced for root; `none`. */
  process_cap: "cgroup" | "rlimit" | "none";
  /** `cgroup`: per sandbox; `rlimit`: address space per process; `none`. */
  memory_cap: "cgroup" | "rlimit" | "none";
  /** `sandbox`: the whole sandbox dies (PID namespace or cgroup); `process_group`: its group. */
  kill: "sandbox" | "process_group";
  network: "none" | "host";
}

/** Summarize what holds for children under `info`. */
export function sandboxSummary(info: IsolationInfo): SandboxSummary {
  const jailed = info.level === "bwrap";
  return {
    level: info.level,
    filesystem: jailed ? "allowlist" : "host",
    uid: jailed ? "unprivileged" : "host_user",
    process_cap: info.cgroup ? "cgroup" : info.rlimits && !info.hostRoot ? "rlimit" : "none",
    memory_cap: info.cgroup?.memory ? "cgroup" : info.rlimits ? "rlimit" : "none",
    kill: jailed || info.cgroup ? "sandbox" : "process_group",
    network: jailed ? "none" : "host",
  };
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
  /** Processes (and threads) per sandbox with cgroups; per user otherwise (not for root). */
  processes: number;
  /** Memory per sandbox (cgroup), bytes; includes the jail's `/tmp`. */
  memoryBytes: number;
  /** Size of the jail's private `/tmp`, bytes. */
  tmpBytes: number;
}

/** Default limits: generous for tests, tight enough to stop fork bombs and disk floods. */
export const DEFAULT_LIMITS: ResourceLimits = {
  cpuSeconds: 60,
  addressSpaceBytes: 4 * 1024 ** 3,
  fileSizeBytes: 64 * 1024 ** 2,
  openFiles: 1024,
  processes: 256,
  memoryBytes: 1024 ** 3,
  tmpBytes: 256 * 1024 ** 2,
};

/** Configuration of a {@linkcode Sandbox}. */
export interface RunnerOptions {
  isolation: IsolationInfo;
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
  /** Per-sandbox caps the child ran into (noted at the end of `stderr` too). */
  capsHit: CapsHit;
  /** The sandbox's cgroup folder name (removed by now), or null without cgroups. */
  cgroup: string | null;
}

const DEFAULT_OUTPUT_BYTES = 32 * 1024;
/** The uid and gid children have inside the jail (their own user namespace). */
export const JAIL_UID = 1000;
const JAIL_PASSWD = `root:x:0:0:root:/root:/usr/sbin/nologin
sandbox:x:${JAIL_UID}:${JAIL_UID}:patchgym sandbox:/tmp:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`;
const JAIL_GROUP = `root:x:0:
sandbox:x:${JAIL_UID}:
nogroup:x:65534:
`;
const JAIL_LAUNCH_SCRIPT = jailLaunchScript(JAIL_PASSWD, JAIL_GROUP);
/**
 * bwrap: own namespaces (no network), a non-root uid that cannot make further user namespaces, no
 * capabilities, killed with its parent, no terminal to inject into.
 */
const JAIL_NAMESPACES = [
  "--unshare-all",
  "--unshare-user",
  "--disable-userns",
  "--uid",
  String(JAIL_UID),
  "--gid",
  String(JAIL_UID),
  "--die-with-parent",
  "--new-session",
];
/** How long to wait for pipes to drain after the child is gone. */
const DRAIN_GRACE_MS = 500;
/** Exit status of the launcher when it cannot set up the sandbox. */
const LAUNCH_FAILED = 125;

/** Runs children under the isolation found on this machine. */
export class Sandbox {
  readonly isolation: IsolationInfo;
  /** The `deno` executable children get (bound alone into the jail for `deno` runs). */
  readonly denoPath: string;
  readonly #denoPath: string;
  readonly #limits: ResourceLimits;

  constructor(options: RunnerOptions) {
    this.isolation = options.isolation;
    this.#denoPath = options.denoPath ?? Deno.execPath();
    this.denoPath = this.#denoPath;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /** Run one child; throws {@linkcode SandboxError} only when it cannot be started. */
  async run(request: RunRequest): Promise<RunResult> {
    const [program] = request.argv;
    if (!program || !isAllowedProgram(program)) {
      throw new SandboxError(`Cannot run "${program}": not an allowlisted program`);
    }
    const started = performance.now();
    const cgroup = this.isolation.cgroup
      ? sandboxCgroup(this.isolation.cgroup, {
        processes: this.#limits.processes,
        memoryBytes: this.#limits.memoryBytes,
      })
      : null;
    const jailed = this.isolation.level === "bwrap";
    if (jailed) {
      await checkBinds([request.cwd, ...(request.writable ?? []), ...(request.readOnly ?? [])]);
    }
    const script = jailed ? JAIL_LAUNCH_SCRIPT : LAUNCH_SCRIPT;
    const rlimits = this.isolation.rlimits ? this.#rlimitSteps(program, request) : [];
    const steps = [...(cgroup?.steps ?? []), ...rlimits];
    const argv = ["sh", "-c", script, "sh", ...steps, "--", ...this.#wrap(request)];
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
        detached: !jailed && !this.isolation.setsid,
      }).spawn();
    } catch (error) {
      throw new SandboxError(`Cannot start the launcher for "${program}": ${String(error)}`, {
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
      killSandbox(child.pid);
    }, request.timeoutMs);
    const status = await child.status;
    clearTimeout(timer);
    // Anything the child left behind dies with it: all of its cgroup (the sweep), else its process
    // group. A jail needs neither: its PID namespace ended with its first process.
    if (!cgroup && !jailed) killSandbox(child.pid);
    const capsHit = cgroup ? await cgroup.sweep() : { processes: false, memory: false };
    await Promise.race([reading, delay(DRAIN_GRACE_MS)]);
    await Promise.all([stdout.cancel(), stderr.cancel()]);
    await reading;
    const errText = stderr.text();
    if (status.code === LAUNCH_FAILED && errText.startsWith("patchgym: cannot set up")) {
      throw new SandboxError(`Cannot start "${program}" in its sandbox: ${errText.trim()}`);
    }
    return {
      argv: request.argv,
      exitCode: status.code,
      signal: status.signal ?? null,
      timedOut,
      stdout: stdout.text(),
      stderr: errText + this.#capsNote(capsHit),
      truncated: stdout.truncated || stderr.truncated,
      outputBytes: stdout.total + stderr.total,
      durationMs: performance.now() - started,
      capsHit,
      cgroup: cgroup?.name ?? null,
    };
  }

  #capsNote(hit: CapsHit): string {
    const notes = [];
    if (hit.processes) {
      notes.push(
        `[sandbox: the process cap of ${this.#limits.processes} was reached; forks were refused]`,
      );
    }
    if (hit.memory) {
      notes.push(
        `[sandbox: the memory cap of ${
          Math.round(this.#limits.memoryBytes / 1024 ** 2)
        } MiB was reached; a process was killed]`,
      );
    }
    return notes.map((n) => `\n${n}`).join("");
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

  /** What the launcher execs: `[setsid] [bwrap ...] program args`. */
  #wrap(request: RunRequest): string[] {
    const [program, ...args] = request.argv;
    const command = [this.#program(program), ...args];
    if (this.isolation.level !== "bwrap") {
      return [...(this.isolation.setsid ? ["setsid"] : []), ...command];
    }
    const jail = jailArgs(this.isolation.mounts!, this.#limits, {
      cwd: request.cwd,
      writable: request.writable ?? [],
      readOnly: request.readOnly ?? [],
      // The deno executable may live anywhere (e.g. an npm cache in HOME): bind just that file.
      files: program === "deno" && this.#denoPath.includes("/") ? [this.#denoPath] : [],
    });
    return [...jail, ...command];
  }

  /**
   * The launcher's `ulimit` steps (the shell sets them on itself before it execs the chain, so no
   * `prlimit` process sits in between). File size and address space are rounded down to whole
   * units of `ulimit` (512-byte blocks, KiB).
   */
  #rlimitSteps(program: string, request: RunRequest): string[] {
    const limits = this.#limits;
    const cpu = Math.min(limits.cpuSeconds, Math.ceil(request.timeoutMs / 1000) + 1);
    const steps = [
      `ulimit:t=${cpu}`,
      `ulimit:f=${Math.floor(limits.fileSizeBytes / 512)}`,
      `ulimit:n=${limits.openFiles}`,
      `nproc:${limits.processes}`,
    ];
    if (program !== "deno") steps.push(`ulimit:v=${Math.floor(limits.addressSpaceBytes / 1024)}`);
    return steps;
  }
}

/** Where a jailed child works: the workspace, extra binds, single files to show. */
interface JailPlaces {
  cwd?: string;
  writable: string[];
  readOnly: string[];
  files: string[];
}

/** The bwrap command line up to and including `--`, for `plan` and one run's places. */
function jailArgs(plan: MountPlan, limits: ResourceLimits, places: JailPlaces): string[] {
  const args = ["bwrap", ...JAIL_NAMESPACES, ...mountArgs(plan)];
  for (const file of places.files) args.push("--ro-bind", file, file);
  args.push(
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--size",
    String(limits.tmpBytes),
    "--tmpfs",
    "/tmp",
  );
  args.push("--file", "3", "/etc/passwd", "--file", "4", "/etc/group");
  if (places.cwd) args.push("--bind", places.cwd, places.cwd);
  for (const path of places.writable) args.push("--bind", path, path);
  for (const path of places.readOnly) args.push("--ro-bind", path, path);
  // The root itself (a tmpfs holding the mount points) is read-only too.
  args.push("--remount-ro", "/", "--chdir", places.cwd ?? "/", "--");
  return args;
}

/**
 * Refuse to bind a path that is not its own real path. bwrap follows symlinks in a bind's path, on
 * the host for its source and inside the jail for its destination, so a link that code under test
 * planted in the workspace (a test file replaced by `../../..`) would mount whatever it leads to,
 * up to the host's root. A path with no symlink in it names one place on both sides; nothing the
 * agent runs is alive between this check and the mount (every run's processes are gone when it
 * returns).
 */
async function checkBinds(paths: string[]): Promise<void> {
  for (const path of paths) {
    const real = await Deno.realPath(path).catch(() => null);
    if (real === path) continue;
    throw new SandboxError(
      `Cannot bind "${path}" into the jail: ${
        real === null ? "it does not exist" : `it leads through a symlink to "${real}"`
      }`,
    );
  }
}

/**
 * Find out once what isolation this machine allows: bwrap when it can start a jail with the mount
 * allowlist, rlimits when the launcher can set them, per-sandbox cgroups when they can be made.
 * `wanted: "none"` skips the bwrap probe.
 */
export async function probeIsolation(
  wanted: "auto" | "bwrap" | "none" = "auto",
): Promise<IsolationInfo> {
  const [rlimits, cgroups, uid] = await Promise.all([
    runSh(`${LAUNCH_SCRIPT}`, ["ulimit:n=64", "nproc:4096", "ulimit:v=4194304", "--", "true"]),
    probeCgroups(),
    // Deno.uid() needs --allow-sys; the shell reads it from /proc instead.
    runSh('while read -r k v rest; do [ "$k" = Uid: ] && echo "$v"; done < /proc/self/status'),
  ]);
  const base = {
    rlimits: rlimits.success,
    cgroup: cgroups.support,
    ...(cgroups.reason ? { cgroupReason: cgroups.reason } : {}),
    setsid: findProgram("setsid") !== null,
    hostRoot: uid.stdout.trim() === "0",
  };
  if (wanted === "none") {
    return { level: "process", ...base, mounts: null, reason: 'isolation "none" was requested' };
  }
  const mounts = planMounts(await pythonPaths());
  const probe = await runSh(JAIL_LAUNCH_SCRIPT, [
    "--",
    ...jailArgs(mounts, DEFAULT_LIMITS, { writable: [], readOnly: [], files: [] }),
    "true",
  ]);
  if (probe.success) return { level: "bwrap", ...base, mounts };
  const reason = "bwrap is not installed or cannot create namespaces here";
  if (wanted === "bwrap") {
    throw new SandboxError(
      `Cannot use bwrap isolation: ${reason}; install bubblewrap or pass --isolation auto`,
    );
  }
  return { level: "process", ...base, mounts: null, reason };
}

/** The library folders of the `python3` children get (none when there is no python3). */
async function pythonPaths(): Promise<string[]> {
  const out = await runSh('exec python3 -I -c "$1"', [
    "import json, sys; print(json.dumps([sys.base_prefix, sys.path]))",
  ]);
  if (!out.success) return [];
  const [prefix, path] = JSON.parse(out.stdout) as [string, string[]];
  return pythonLibraryPaths(path, prefix);
}

/**
 * Kill a sandbox's first process and its process group (when it leads one). `Deno.kill` needs
 * unrestricted run permission, which the orchestrator does not have (it may run only `sh`), so the
 * kill then goes through `sh`'s `kill`.
 */
function killSandbox(pid: number): void {
  for (const target of [pid, -pid]) {
    try {
      Deno.kill(target, "SIGKILL");
    } catch (error) {
      if (
        error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied
      ) {
        runSh('kill -9 "$@" 2>/dev/null; true', [String(pid), String(-pid)]).catch(() => {});
        return;
      }
      // Already gone, or not a group leader (a jailed child's bwrap is not).
    }
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
