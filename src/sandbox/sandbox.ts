/**
 * The sandbox: the only way patchgym starts a process that the agent's code can
 * influence. argv only (no shell), allowlisted programs, scrubbed environment, stdin closed,
 * a wall-clock timeout that kills the whole sandbox, output capped while reading (head and tail
 * kept), rlimits, per-sandbox pids and memory caps through cgroups, and a bubblewrap jail (a mount
 * allowlist, a non-root uid in its own user namespace) when available.
 *
 * Every child starts as a small launcher (the compiled `patchgym_launch`, else `sh`; see
 * `_launch.ts` and `launcher.ts`) that joins the sandbox's cgroups, sets the rlimits and then execs
 * the program in a session of its own (no jail) or `bwrap` (own PID namespace), so no child needs
 * Deno's `detached: true`, which forks the whole orchestrator for every spawn.
 */
import { dirname } from "node:path";
import { SandboxError } from "../errors.ts";
import type { ChildResult, ChildSpec } from "./_child.ts";
import {
  helperArgv,
  LAUNCH_FAILED,
  launchArgv,
  type Launcher,
  type LaunchPlan,
  runArgv,
  runHelper,
  setprivArgs,
} from "./_launch.ts";
import {
  type CapsHit,
  type CgroupSupport,
  probeCgroups,
  type SandboxCgroup,
  sandboxCgroup,
} from "./cgroup.ts";
import {
  findProgram,
  mountArgs,
  type MountPlan,
  mountsFor,
  planMounts,
  pythonLibraryPaths,
} from "./mounts.ts";
import { findLauncher } from "./launcher.ts";
import { findProgramFolder, programEntries, type ProgramFolderFind } from "./program_folder.ts";
import { hostSpawnsHere, spawnerFor } from "./_spawner.ts";
import { aheadCap, type AheadJail, AheadJails, type AheadOwner } from "./_ahead.ts";
import { CHILD_PATH, isSandboxProgram } from "./programs.ts";
import { defaultRunSlots, RunSlots } from "./run_slots.ts";
import { compileFilter } from "./seccomp.ts";
import { WARM_FLAGS, zygoteProgram } from "./_zygote.ts";
import { DEFAULT_USER_RANGE, type UserLease, UserPool, type UserRange } from "./users.ts";
import type { WorkspaceMount } from "../workspace/workspace.ts";
import { removeByBytesWith } from "../workspace/remove.ts";

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
  /** Whether patchgym runs as root (then every sandbox runs as a uid of `users`). */
  hostRoot: boolean;
  /**
   * Whether workspaces can be file systems of their own, capped in bytes and files while a command
   * writes (a tmpfs mounted by root; see {@linkcode Sandbox.workspaceMount}).
   */
  workspaceMounts?: boolean;
  /**
   * As root with the compiled launcher: whether a jail's launcher detaches, before bwrap sets the
   * jail up, every host mount the jail does not bind (its `hide` step). bwrap reads the whole
   * mount table after each bind, and with many episodes running most of it is their workspaces.
   */
  hideMounts?: boolean;
  /**
   * As root: the unprivileged host uids (and gids) sandboxes run as, one per concurrent sandbox.
   * Null when patchgym is not root (children then run as its own user, mapped to a non-root uid in
   * the jail's user namespace).
   */
  users: UserRange | null;
  /**
   * The compiled seccomp filter (`seccomp.ts`) the jail loads, as hex (the launcher pipes its bytes
   * to `bwrap --seccomp`); null when the kernel or bwrap refused it, and always without bwrap.
   */
  seccomp: string | null;
  /**
   * The compiled launcher every child starts as (see `launcher.ts`); null when children start
   * through `sh` instead (then the orchestrator's `--allow-run` names `sh`), with the reason.
   */
  launcher?: string | null;
  launcherReason?: string;
  /**
   * Root without bwrap: whether agent code may run anyway (`--unsafe-root-without-jail`). Without
   * it, every run is refused. Even then children run as a sandbox uid.
   */
  unjailedRoot: boolean;
}

/** What holds for children, in words a trajectory or `doctor` can carry. */
export interface SandboxSummary {
  level: IsolationLevel;
  /** `allowlist`: only the runtime and the workspace are mounted; `host`: the host as is. */
  filesystem: "allowlist" | "host";
  /**
   * `sandbox_user`: an unprivileged host uid of its own per sandbox (patchgym runs as root);
   * `unprivileged`: a non-root uid without capabilities in a user namespace, which is the user
   * patchgym runs as on the host; `host_user`: the user patchgym runs as, without a namespace.
   */
  uid: "sandbox_user" | "unprivileged" | "host_user";
  /** `filtered`: the seccomp filter of `seccomp.ts`; `host`: every system call. */
  syscalls?: "filtered" | "host";
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
    uid: info.users ? "sandbox_user" : jailed ? "unprivileged" : "host_user",
    syscalls: jailed && info.seccomp !== null ? "filtered" : "host",
    process_cap: info.cgroup
      ? "cgroup"
      : info.rlimits && (!info.hostRoot || info.users)
      ? "rlimit"
      : "none",
    memory_cap: info.cgroup?.memory ? "cgroup" : info.rlimits ? "rlimit" : "none",
    kill: jailed || info.cgroup ? "sandbox" : "process_group",
    network: jailed ? "none" : "host",
  };
}

/**
 * What a run can demand of this machine with `--require-isolation`: `jail` (bwrap with the mount
 * allowlist and seccomp; as root, a sandbox uid of its own) or `full` (that, plus per-sandbox pids
 * and memory cgroups). `none` demands nothing.
 */
export const ISOLATION_REQUIREMENTS = ["none", "jail", "full"] as const;
export type IsolationRequirement = typeof ISOLATION_REQUIREMENTS[number];

/**
 * What caps a sandbox's processes without cgroups, or null: RLIMIT_NPROC, which the kernel counts
 * per uid in a user namespace. As root each sandbox has a uid of its own; without root a jail with
 * the compiled launcher sets it inside its own user namespace (counted there, Linux 5.14 and
 * later); otherwise every process of this user counts against it, patchgym's and any other.
 */
function processCap(info: IsolationInfo): string | null {
  if (!info.rlimits || (info.hostRoot && !info.users)) return null;
  if (info.hostRoot) return "per sandbox uid by RLIMIT_NPROC";
  return info.level === "bwrap" && info.launcher
    ? "per jail by RLIMIT_NPROC (its own user namespace's processes)"
    : "by RLIMIT_NPROC on all of this user's processes";
}

/**
 * The guarantees children do not get on this machine, one line each for people (the rollout's first
 * lines, its summary, `doctor`); empty when everything holds.
 */
export function missingGuarantees(info: IsolationInfo): string[] {
  const missing: string[] = [];
  if (info.level !== "bwrap") {
    missing.push(
      `no jail (${
        info.reason ?? "bwrap unavailable"
      }): children see the host's files and network, and /tmp and /dev/shm are the host's${
        info.hostRoot ? "; running as root only because of --unsafe-root-without-jail" : ""
      }`,
    );
  } else if (info.seccomp === null) {
    missing.push("no seccomp filter: the kernel or bwrap refused it");
  }
  if (!info.cgroup) {
    missing.push(
      `no per-sandbox cgroups (${info.cgroupReason ?? "unavailable"}): processes are capped ${
        processCap(info) ?? "by nothing"
      } and memory only per process (RLIMIT_AS)`,
    );
  } else if (!info.cgroup.memory) {
    missing.push("no memory cgroup: memory is capped only per process (RLIMIT_AS)");
  }
  if (!(info.workspaceMounts && info.users && info.level === "bwrap")) {
    missing.push(
      "the workspace is on the host's disk: within one command a write is capped per file (RLIMIT_FSIZE), and the workspace's total size and file count are checked when the command ends",
    );
  }
  if (!info.launcher) {
    missing.push(
      `no compiled launcher (${
        info.launcherReason ?? "none was built"
      }): children start through sh, so the orchestrator's --allow-run names sh, which can start any program`,
    );
  }
  if (!info.hostRoot && info.level === "bwrap") {
    missing.push(
      "not root: sandboxes share this user's uid, so per-user kernel quotas (inotify, processes) are shared with patchgym",
    );
  }
  return missing;
}

/** What holds for children in the mode this machine is in, for `doctor` and the docs. */
export function guarantees(info: IsolationInfo): { mode: string; holds: string[] } {
  const jailed = info.level === "bwrap";
  const mode = `${info.hostRoot ? "root" : "non-root"} ${
    jailed ? "with bwrap" : "without bwrap"
  }, ${info.cgroup ? `cgroup v${info.cgroup.version}` : "no cgroups"}`;
  const holds: string[] = [];
  if (info.users) {
    holds.push(
      `each sandbox runs as its own unprivileged host uid/gid (${info.users.first}-${
        info.users.first + info.users.count - 1
      }), owns its workspace, no capabilities, no_new_privs; per-user kernel quotas are its own`,
    );
  } else if (jailed) {
    holds.push("children run as a non-root uid in a user namespace, no capabilities, no_new_privs");
  }
  if (jailed) {
    holds.push(
      "mount allowlist (runtime, minimal /etc, the workspace nosuid); /sys absent; /proc/sys read-only to the sandbox's uid",
      "no network, own PID namespace, dies with patchgym",
      "/tmp and /dev/shm: fresh tmpfs per run, size-capped while writing",
    );
    if (info.seccomp) {
      holds.push(
        "seccomp: no new namespaces, mount, keyctl, bpf, perf_event_open, userfaultfd, io_uring, ptrace, kexec or modules; calls newer than the reviewed table (Linux 6.10) look absent (ENOSYS)",
      );
    }
  }
  if (info.workspaceMounts && info.users && jailed) {
    holds.push(
      "each workspace and scoring copy is a tmpfs of its own, capped in bytes and files while a command writes (ENOSPC)",
    );
  }
  if (info.hideMounts && info.users && jailed) {
    holds.push(
      "host mounts a jail does not bind (other episodes' workspaces) are detached before bwrap sets it up",
    );
  }
  const cap = processCap(info);
  if (info.cgroup) {
    holds.push(
      `per-sandbox pids cap${
        info.cgroup.memory ? " and memory cap" : ""
      } (cgroup v${info.cgroup.version}); every process of a run is killed afterwards`,
    );
  } else if (cap) {
    holds.push(`processes capped ${cap}; memory per process (RLIMIT_AS)`);
  }
  if (info.rlimits) {
    holds.push("rlimits: CPU seconds, file size, open files, address space, no core dumps");
  }
  holds.push("argv only, allowlisted programs, scrubbed environment, timeout, output caps");
  if (info.launcher) {
    holds.push(
      `children start through the compiled launcher ${info.launcher}, the only program patchgym's --allow-run names for them; it execs only bwrap or an allowlisted program`,
    );
  }
  return { mode, holds };
}

/** Why `info` does not meet `requirement`, or null when it does. */
export function unmetRequirement(
  info: IsolationInfo,
  requirement: IsolationRequirement,
): string | null {
  if (requirement === "none") return null;
  const unmet: string[] = [];
  if (info.level !== "bwrap") unmet.push(`no bwrap jail (${info.reason ?? "unavailable"})`);
  else if (info.seccomp === null) unmet.push("no seccomp filter");
  if (requirement === "full") {
    if (!info.cgroup) unmet.push(`no per-sandbox cgroups (${info.cgroupReason ?? "unavailable"})`);
    else if (!info.cgroup.memory) unmet.push("no memory cgroup");
  }
  return unmet.length === 0 ? null : unmet.join("; ");
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
  /** Size of the jail's private `/dev/shm`, bytes. */
  shmBytes: number;
  /**
   * Scheduling niceness of every child, 0 to 19 (compiled launcher only). On a busy machine the
   * children, the tests themselves, yield to the orchestrator, which feeds every episode: its
   * event loop then waits less for a core, and each model answer goes on at once.
   */
  niceness: number;
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
  shmBytes: 64 * 1024 ** 2,
  niceness: 10,
};

export type { AheadOwner } from "./_ahead.ts";

/** Configuration of a {@linkcode Sandbox}. */
export interface RunnerOptions {
  isolation: IsolationInfo;
  /** The `deno` executable children use for TypeScript tests. */
  denoPath?: string;
  limits?: Partial<ResourceLimits>;
  /** Where uid leases are kept (see `users.ts`; default `/run/patchgym/uids`). */
  userLockDir?: string;
  /**
   * How many runs start and run at once; more wait their turn (see `run_slots.ts`). Default
   * `RUNS_PER_CORE` per core; slots given as a `RunSlots` may be shared with other sandboxes.
   */
  runSlots?: number | RunSlots;
  /**
   * Whether runs that allow it (see {@linkcode RunRequest.warm}) may be forked from the warm
   * interpreter. Default true; false starts every run cold (to compare the two).
   */
  warm?: boolean;
  /**
   * Whether a run that names {@linkcode RunRequest.ahead} gets the next run's jail made ahead, so
   * that only the program's start is left when it comes (with bwrap and the compiled launcher).
   * Default true; false makes every jail when its run comes.
   */
  ahead?: boolean;
  /** How long a jail made ahead waits for its run before it ends unused (default 60 s). */
  aheadIdleMs?: number;
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
  /**
   * Folders bound read-only at another place (under bwrap only), e.g. a built `node_modules` at the
   * workspace's `node_modules`. Both paths must be their own real paths.
   */
  binds?: { source: string; dest: string }[];
  /** Extra environment variables on top of the fixed scrubbed set. */
  env?: Record<string, string>;
  /**
   * Bytes written to the child's stdin, which is then closed (default: no stdin at all); parts are
   * written one after another, never copied into one (a part the runs share stays shared).
   */
  stdin?: Uint8Array | readonly Uint8Array[];
  /**
   * Aborted while the run waits for one of the runs at once (its episode was interrupted): the
   * run never starts, and `run` rejects with the signal's reason. A run that started runs on.
   */
  signal?: AbortSignal;
  /**
   * A `python3 -I -B -u -c CODE` run that may be forked from the warm interpreter instead of
   * starting one in its jail (`_zygote.ts`), where it can: as root, with the compiled launcher.
   * The program sees the same jail, uid, limits, streams and environment either way.
   */
  warm?: boolean;
  /**
   * Modules the warm interpreter imports beforehand for this run (e.g. `pytest`): only what the
   * program imports before any code of the run, found where it would find them.
   */
  warmModules?: string[];
  /**
   * More runs of this shape (the same folder, binds, timeout and output cap) are likely to come in
   * this folder, one at a time, such as an episode's commands: once this run ends, the next one's
   * jail is made and waits for its run (see `Sandbox`, "Jails made ahead"). Not with `stdin` or
   * `warm`. The owner says when the folder goes: until then, or `Sandbox.endAhead()`, or a minute
   * without a run, the waiting jail's processes keep this process's event loop alive.
   */
  ahead?: AheadOwner;
}

/** What a child did. A non-zero exit is data, not an error. */
export interface RunResult {
  argv: string[];
  exitCode: number;
  signal: string | null;
  /** Killed at its timeout, counted in its own time (see `RunClock`). */
  timedOut: boolean;
  /**
   * How long its processes waited for a CPU, ms, that its timeout gave again: 0 unless its
   * timeout came on a machine busier than its cores (`durationMs` includes it).
   */
  waitedMs: number;
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
  /** Whether the program was forked from the warm interpreter (see {@linkcode RunRequest.warm}). */
  warm: boolean;
  /** Whether the run's jail was made ahead (see {@linkcode RunRequest.ahead}). */
  ahead: boolean;
}

const DEFAULT_OUTPUT_BYTES = 32 * 1024;
/** The uid and gid children have inside the jail when patchgym is not root (a user namespace). */
export const JAIL_UID = 1000;
/** The jail's `/etc/passwd` and `/etc/group` for a sandbox running as `uid`. */
function jailUsers(uid: number): { passwd: string; group: string } {
  return {
    passwd: `root:x:0:0:root:/root:/usr/sbin/nologin
sandbox:x:${uid}:${uid}:patchgym sandbox:/tmp:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
`,
    group: `root:x:0:
sandbox:x:${uid}:
nogroup:x:65534:
`,
  };
}
const jailFiles = new Map<number, { passwd: string; group: string }>();
/** {@linkcode jailUsers}, made once per uid. */
function jailUsersOf(uid: number): { passwd: string; group: string } {
  let files = jailFiles.get(uid);
  if (!files) {
    files = jailUsers(uid);
    jailFiles.set(uid, files);
  }
  return files;
}
/**
 * bwrap as an unprivileged user: own namespaces (no network), a non-root uid that cannot make
 * further user namespaces, no capabilities, killed with its parent, no terminal to inject into.
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
];
/**
 * bwrap as root: the same namespaces but the user one. A user namespace made by root maps the
 * jail's uid to host root, so instead the jail keeps the host's users and its first program (see
 * {@linkcode jailFirst}) drops to the sandbox's own unprivileged uid with no capabilities, no
 * bounding set and `no_new_privs` before it execs the program.
 */
const ROOT_JAIL_NAMESPACES = [
  "--unshare-ipc",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--die-with-parent",
];
/** The file descriptor the launcher opens the seccomp filter on, for `bwrap --seccomp`. */
const SECCOMP_FD = 5;

/**
 * What runs first in the jail, before the program. With the compiled launcher (bound into the jail
 * as `file`): a process group of its own (`pgrp`), the `steps` that must be taken inside the jail,
 * and, as root, the drop to the sandbox's `uid` for good (`drop:`). The jail stays in the
 * orchestrator's session: a session of its own is a scheduling group of its own where the kernel's
 * autogroup is on (most distributions), which weighs as much as the whole orchestrator whatever
 * the jail's niceness, so a few hundred jails took the orchestrator's cores (its event loop waited
 * for a core 12 of 26 s at C=256, on this project's 2-core machine). What the session gave stays:
 * the launcher gives up the terminal first (`noctty`), and `pgrp` keeps the jail's signals to its
 * group inside it. With the sh fallback, bwrap makes the session (`newSession`), and as root
 * `setpriv` drops (a heavier program: about 5 ms more per run, measured on this project's
 * machine).
 */
function jailFirst(
  launcher: Launcher,
  mounts: MountPlan,
  uid: number | null,
  steps: string[] = [],
): { argv: string[]; file?: string; setpriv: boolean; newSession: boolean } {
  if (launcher) {
    const drop = uid === null ? [] : [`drop:${uid}`];
    return {
      argv: [launcher, "pgrp", ...steps, ...drop, "--"],
      file: launcher,
      setpriv: false,
      newSession: false,
    };
  }
  const setpriv = uid !== null;
  return { argv: setpriv ? setprivArgs(mounts.setpriv!, uid) : [], setpriv, newSession: true };
}

/**
 * The launcher's steps before a jail: it gives up the terminal, and makes a process group of its
 * own for bwrap (see {@linkcode jailFirst}). bwrap's pid 1 in the jail stays in bwrap's group, and
 * the jail's program can reach it (unprivileged, it is the program's own user's process, whose
 * memory the program may write): left in the orchestrator's group, it signalled the orchestrator
 * and every sibling jail's bwrap (`tests/sandbox/jail_session_test.ts`). Nothing the jail can see
 * is in the orchestrator's group then.
 */
function jailSteps(launcher: Launcher): string[] {
  return launcher ? ["noctty", "pgrp"] : [];
}

/**
 * Make this thread start its sandboxes' processes itself instead of handing them to a spawner
 * thread of its own (see `hostSpawnsHere` in `_spawner.ts`): for a thread that only runs episodes,
 * such as a rollout pool's worker. Not for a thread that writes records or serves clients.
 */
export function spawnOnThisThread(): void {
  hostSpawnsHere();
}

/** Runs children under the isolation found on this machine. */
export class Sandbox {
  readonly isolation: IsolationInfo;
  /** The `deno` executable children get (bound alone into the jail for `deno` runs). */
  readonly denoPath: string;
  readonly #denoPath: string;
  readonly #limits: ResourceLimits;
  readonly #users: UserPool | null;
  readonly #slots: RunSlots;
  readonly #launcher: Launcher;
  readonly #warm: boolean;
  readonly #aheadAllowed: boolean;
  /** Jails made ahead and waiting for their run, by the runs' shape (see `#aheadKey`). */
  readonly #ahead: AheadJails;
  /**
   * The warm interpreters' argvs, by program and modules: the same for every run of this sandbox
   * (about 16 KB of text, which each run built again).
   */
  readonly #zygotes = new Map<string, string[]>();

  constructor(options: RunnerOptions) {
    this.isolation = options.isolation;
    this.#launcher = options.isolation.launcher ?? null;
    this.#warm = options.warm ?? true;
    this.#aheadAllowed = options.ahead ?? true;
    this.#ahead = new AheadJails({
      cap: aheadCap(options.isolation.users?.count ?? DEFAULT_USER_RANGE.count),
      idleMs: options.aheadIdleMs ?? AHEAD_IDLE_MS,
    });
    this.#denoPath = options.denoPath ?? Deno.execPath();
    this.denoPath = this.#denoPath;
    this.#limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.#users = options.isolation.users
      ? new UserPool(options.isolation.users, options.userLockDir)
      : null;
    this.#slots = options.runSlots instanceof RunSlots
      ? options.runSlots
      : new RunSlots(options.runSlots ?? defaultRunSlots());
    // Trees the sandbox's code wrote that Deno cannot name are removed through the launcher.
    const launcher = this.#launcher;
    removeByBytesWith((dir) => helperArgv(launcher, "rmtree", [dir]), { PATH: CHILD_PATH });
  }

  /**
   * As root with a jail: a capped file system for a workspace (a tmpfs of `bytes` and `entries`
   * inodes, nosuid, nodev, mode 0700), so one command cannot write past the caps (it gets ENOSPC);
   * null elsewhere (the workspace is then measured after each command only).
   */
  workspaceMount(bytes: number, entries: number): WorkspaceMount | null {
    if (!this.isolation.workspaceMounts || !this.isolation.users) return null;
    const spawner = spawnerFor(this.#launcher);
    return {
      async mount(dir) {
        const out = await spawner.helper("mount-workspace", [
          String(Math.ceil(bytes / 4096) * 4096),
          String(entries),
          dir,
        ]);
        if (!out.success) {
          throw new SandboxError(`Cannot mount the workspace "${dir}": ${out.stderr.trim()}`);
        }
      },
      async unmount(dir) {
        await spawner.helper("umount", [dir]);
      },
    };
  }

  /** Run one child; throws {@linkcode SandboxError} only when it cannot be started. */
  async run(request: RunRequest): Promise<RunResult> {
    const [program] = request.argv;
    if (!program || !isSandboxProgram(program)) {
      throw new SandboxError(`Cannot run "${program}": not an allowlisted program`);
    }
    const jailed = this.isolation.level === "bwrap";
    if (this.isolation.hostRoot && !jailed && !this.isolation.unjailedRoot) {
      throw new SandboxError(
        `Cannot run "${program}": patchgym runs as root and bwrap is not available (${
          this.isolation.reason ?? "no jail"
        }), so agent code would reach the host; install bubblewrap, run as an unprivileged user, or pass --unsafe-root-without-jail`,
      );
    }
    const binds = request.binds ?? [];
    if (binds.length > 0 && !jailed) {
      throw new SandboxError(
        `Cannot mount "${binds[0].source}" at "${binds[0].dest}": mounts need the bwrap jail`,
      );
    }
    if (jailed) {
      checkBinds([
        request.cwd,
        ...(request.writable ?? []),
        ...(request.readOnly ?? []),
        ...binds.flatMap((b) => [b.source, b.dest]),
      ]);
    }
    const filter = jailed ? this.isolation.seccomp : null;
    const ahead = this.#aheadKey(request, jailed);
    const giveSlot = await this.#slots.take(request.signal);
    try {
      // Taking a slot can wait: still not started.
      request.signal?.throwIfAborted();
      const made = ahead === null ? null : this.#ahead.take(ahead);
      const result = made && await this.#runAhead(made, request);
      if (result) return result;
      const user = this.#users ? await this.#lease(this.#users) : null;
      try {
        // A uid lease can wait too (every uid of the range in use): still not started.
        request.signal?.throwIfAborted();
        return await this.#run(request, { jailed, filter, user });
      } finally {
        // Every process of the run is gone by now (its PID namespace or cgroup, or its group).
        user?.release();
      }
    } finally {
      giveSlot();
      // The next run's jail, made while the caller is busy elsewhere (its model answers).
      if (ahead !== null && !request.signal?.aborted) this.#makeAhead(ahead, request, filter);
    }
  }

  // Jails made ahead. An episode's commands come one at a time in its workspace, with a model's
  // answer between them, and making a command's jail (cgroups, the launcher's steps, bwrap's
  // namespaces and mounts) is most of what a sandboxed command costs over the same command bare.
  // So once a run that names `RunRequest.ahead` ends, the next run's jail of the same shape is
  // made, with (as root) its own uid, its cgroups, limits and seccomp filter, and its launcher
  // waits on stdin (`await`); the next run gives it its environment, as root the workspace's
  // handing over to its uid (`chown`, done then: the orchestrator's tools write between runs),
  // and its program. A jail
  // serves one run and nothing carries over: no process of the last run is left (its PID
  // namespace and cgroup ended), its `/tmp` and `/dev/shm` are fresh, and its program's clocks
  // start when the run comes. Jails made ahead lease uids from the range's upper half only (so
  // runs, whatever thread or process holds jails made ahead, always have the lower half), are made
  // only while a run slot is free, and give their uids up to this sandbox's runs that find none
  // free; see `AheadJails` for when one ends unused.

  /**
   * The shape of run `request` is, for a jail made ahead (runs of one shape get the same jail), or
   * null: its next run's jail is made when it comes. Only runs that name `ahead`, without stdin,
   * not warm, and with nothing bound inside the folders the jail hands over (its `chown` walks
   * the jail's view of them, which a jail made on demand never sees).
   */
  #aheadKey(request: RunRequest, jailed: boolean): string | null {
    if (!request.ahead || !this.#aheadAllowed || !jailed || !this.#launcher) return null;
    if (request.stdin !== undefined || request.warm) return null;
    const owned = handedOver(request);
    const inside = [...(request.readOnly ?? []), ...(request.binds ?? []).map((b) => b.dest)];
    if (inside.some((path) => owned.some((dir) => path === dir || path.startsWith(`${dir}/`)))) {
      return null;
    }
    const [program] = request.argv;
    return JSON.stringify([
      request.cwd,
      request.writable ?? [],
      request.readOnly ?? [],
      request.binds ?? [],
      request.timeoutMs,
      request.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES,
      // A deno run binds the deno executable and has no address-space cap.
      program === "deno",
    ]);
  }

  /**
   * A uid for a run: where every uid of the range is in use, this sandbox's jails made ahead give
   * theirs up first (the oldest first), before the run waits for one.
   */
  async #lease(users: UserPool): Promise<UserLease> {
    while (true) {
      const lease = users.tryLease();
      if (lease) return lease;
      if (!await this.#ahead.endOldest()) return await users.lease();
    }
  }

  /**
   * Run `request` in `jail`; null when nothing of the program started (the jail ended before it
   * read its run, or its launcher failed before the program): the run is then started as any
   * other, and a failure of the launcher's comes again there and says what it said.
   */
  async #runAhead(jail: AheadJail, request: RunRequest): Promise<RunResult | null> {
    const started = performance.now();
    const [program, ...args] = request.argv;
    const uid = jail.uid;
    const fields = [
      ...spawnedEnvironment(this.#env(request), request.cwd),
      "",
      // Its failures are the launcher's, as they are before a jail made when its run comes.
      `tag:${jail.tag}`,
      // As root, the places the run writes become its uid's, and it drops to that uid for good.
      ...(uid === null ? [] : [...chownSteps(request, uid), `drop:${uid}`]),
      "--",
      this.#program(program),
      ...args,
    ];
    // A NUL cannot be carried (nor spawned): such a run goes the usual way, and fails there.
    if (fields.some((field) => field.includes("\0"))) {
      jail.child.cancel();
      return null;
    }
    jail.child.go(new TextEncoder().encode(fields.map((field) => `${field}\0`).join("")));
    let child: ChildResult;
    try {
      child = await jail.child.result;
    } catch (error) {
      throw new SandboxError(`Cannot start the launcher for "${program}": ${String(error)}`, {
        cause: error,
      });
    }
    if (!child.started || launchFailed(child, jail.tag)) return null;
    return this.#result(request, child, { cgroup: jail.cgroup, started, ahead: true });
  }

  /**
   * Make the next run's jail for runs of shape `key` (like `request`), unless one waits for them,
   * this sandbox keeps as many as it may, a run waits for a uid or a slot, or no uid of the upper
   * half or no slot is free now. It holds the slot until it is made.
   */
  #makeAhead(key: string, request: RunRequest, filter: string | null): void {
    const users = this.#users;
    if (!this.#ahead.wants(key) || (users?.waiting ?? 0) > 0) return;
    const giveSlot = this.#slots.tryTake();
    if (!giveSlot) return;
    // As root, a uid of its own; without root, the jail's user namespace, as any run's.
    const user = users ? users.tryLease({ upperHalf: true }) : null;
    if (users && !user) return giveSlot();
    const how = { jailed: true, filter, user };
    // Spawned with the environment of no run: the run brings its own.
    const { spec, cgroup, tag } = this.#spec({ ...request, env: undefined }, how, { wait: true });
    let child;
    try {
      child = spawnerFor(this.#launcher).ahead({ ...spec, ahead: true, stdin: null });
    } catch {
      user?.release();
      return giveSlot();
    }
    this.#ahead.add(
      key,
      { owner: request.ahead!, uid: user?.uid ?? null, child, cgroup, tag },
      user,
    );
    Promise.race([child.ready, child.result]).catch(() => {}).finally(giveSlot);
  }

  /** End every jail made ahead, unused, and wait until their processes are gone. */
  endAhead(): Promise<void> {
    return this.#ahead.endAll();
  }

  /** Wait until every jail being made ahead is ready (or ended): for measurements. */
  aheadReady(): Promise<void> {
    return this.#ahead.ready();
  }

  async #run(
    request: RunRequest,
    how: { jailed: boolean; filter: string | null; user: UserLease | null },
  ): Promise<RunResult> {
    const [program] = request.argv;
    const started = performance.now();
    const env = this.#env(request);
    const warmCode = warmEnvironment(request, env) ? this.#warmCode(request, how) : null;
    const { spec, cgroup, tag } = this.#spec(request, how, { warmCode, env });
    let child: ChildResult;
    try {
      child = await spawnerFor(this.#launcher).run(spec);
    } catch (error) {
      throw new SandboxError(`Cannot start the launcher for "${program}": ${String(error)}`, {
        cause: error,
      });
    }
    // Only the launcher knows the tag: a program printing the same line is data, not a failed
    // set-up (which would end the episode, or the grader's run, as broken infrastructure).
    if (launchFailed(child, tag)) {
      const firstLine = child.stderr.split("\n")[0];
      throw new SandboxError(
        `Cannot start "${program}" in its sandbox: ${firstLine.slice(0, -tag.length - 3)}`,
      );
    }
    return this.#result(request, child, { cgroup, started, ahead: false });
  }

  /**
   * The child to spawn for `request`: the launcher's argv with the run's cgroups, limits and jail,
   * and the cgroup and tag it was given. `warmCode`: the program is forked from the warm
   * interpreter; `wait`: the jail is made ahead, its program (and the `chown` and `drop`) to come
   * (`await`).
   */
  #spec(
    request: RunRequest,
    how: { jailed: boolean; filter: string | null; user: UserLease | null },
    options: { warmCode?: string | null; wait?: boolean; env?: Record<string, string> },
  ): { spec: ChildSpec; cgroup: SandboxCgroup | null; tag: string } {
    const [program] = request.argv;
    const { jailed, filter, user } = how;
    const warmCode = options.warmCode ?? null;
    const wait = options.wait ?? false;
    const env = options.env ?? this.#env(request);
    // A warm run's program has a holder beside it in the jail: one process more for the caps.
    const extra = warmCode === null ? 0 : 1;
    const cgroup = this.isolation.cgroup
      ? sandboxCgroup(this.isolation.cgroup, {
        processes: this.#limits.processes + extra,
        memoryBytes: this.#limits.memoryBytes,
      }, this.#launcher)
      : null;
    const rlimits = this.isolation.rlimits ? this.#rlimitSteps(program, request, extra) : [];
    // Without root, a jail is a user namespace of its own, and the kernel counts a process cap
    // set inside it against that namespace's processes only (Linux 5.14 and later): the jail's
    // own cap. Set before bwrap, it counted every process of the user, patchgym's threads and
    // every other program's included, so a user with more than the cap running elsewhere (a
    // trainer's threads) could start no jail at all. The jail's launcher caps bwrap's pid 1 as
    // well (`jailnproc:`), which was forked before it.
    const ownCap = jailed && this.#launcher !== null && user === null;
    const cap = (step: string) => step.startsWith("nproc:");
    const inJail = ownCap ? rlimits.filter(cap).map((step) => `jail${step}`) : [];
    // As root, the places the sandbox writes become its uid's (symlinks themselves, never what
    // they point to), and nothing else is. A jail made ahead does it when its run comes.
    const owned = user && !wait ? chownSteps(request, user.uid) : [];
    const steps = [
      ...(cgroup?.steps ?? []),
      ...rlimits.filter((step) => !(ownCap && cap(step))),
      ...owned,
      ...(jailed ? jailSteps(this.#launcher) : []),
      ...this.#hideSteps(how),
    ];
    const tag = randomTag();
    const plan = {
      tag,
      steps,
      ...(jailed ? { jail: { ...jailUsersOf(user?.uid ?? JAIL_UID), seccomp: filter } } : {}),
    };
    const argv = launchArgv(this.#launcher, {
      ...plan,
      ...this.#wrap(request, how, { last: wait ? "await" : undefined, inJail }),
    });
    const warmSpec = warmCode === null ? null : this.#warmSpec(warmCode, request, how, {
      plan,
      env,
      steps: [...(cgroup?.steps ?? []), ...rlimits],
    });
    const spec: ChildSpec = {
      argv,
      warm: warmSpec,
      cwd: request.cwd,
      env,
      stdin: request.stdin === undefined
        ? null
        : request.stdin instanceof Uint8Array
        ? [request.stdin]
        : [...request.stdin],
      cap: request.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES,
      timeoutMs: request.timeoutMs,
      detached: !jailed && !this.isolation.setsid,
      killGroup: !cgroup && !jailed,
      sweep: cgroup?.sweepArgs ?? null,
      waited: cgroup?.waitedArgs ?? null,
    };
    return { spec, cgroup, tag };
  }

  /** What `child`, started for `request` at `started` (ms), did. */
  #result(
    request: RunRequest,
    child: ChildResult,
    how: { cgroup: SandboxCgroup | null; started: number; ahead: boolean },
  ): RunResult {
    const { cgroup, started, ahead } = how;
    const capsHit = cgroup && child.sweep
      ? cgroup.caps(child.sweep)
      : { processes: false, memory: false };
    return {
      argv: request.argv,
      exitCode: child.code,
      signal: child.signal,
      timedOut: child.timedOut,
      waitedMs: child.waitedMs,
      stdout: child.stdout,
      stderr: child.stderr + this.#capsNote(capsHit),
      truncated: child.truncated,
      outputBytes: child.outputBytes,
      durationMs: performance.now() - started,
      capsHit,
      cgroup: cgroup?.name ?? null,
      warm: child.warm,
      ahead,
    };
  }

  /** How many runs start and run at once. */
  get runSlots(): number {
    return this.#slots.size;
  }

  /** The niceness its children run at: 0 with the sh fallback, which cannot set one. */
  get niceness(): number {
    return this.#launcher ? this.#limits.niceness : 0;
  }

  /** The launcher's `hide` step, where {@linkcode IsolationInfo.hideMounts} holds. */
  #hideSteps(how: { jailed: boolean; user: UserLease | null }): string[] {
    return how.jailed && how.user && this.#launcher && this.isolation.hideMounts ? ["hide"] : [];
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

  /**
   * What the spawner needs to fork `request`'s program (`-c` program `code`) from the warm
   * interpreter: the warm interpreter's argv, the launcher's argv whose jail holds the program's
   * place, and the request (the run's uid, folder, environment, the launcher's cgroup and limit
   * steps, the seccomp filter). Root with a jail and the compiled launcher only.
   */
  #warmSpec(
    code: string,
    request: RunRequest,
    how: { jailed: boolean; filter: string | null; user: UserLease | null },
    run: { plan: Omit<LaunchPlan, "command">; env: Record<string, string>; steps: string[] },
  ): NonNullable<ChildSpec["warm"]> {
    const nonce = randomTag();
    return {
      zygote: this.#zygoteArgv(code, request.warmModules ?? []),
      argv: launchArgv(this.#launcher, {
        ...run.plan,
        ...this.#wrap(request, how, { last: `hold:${nonce}` }),
      }),
      request: {
        nonce,
        uid: how.user!.uid,
        cwd: request.cwd,
        env: run.env,
        steps: run.steps.filter((step) => /^(join|jointask|ulimit|nproc|nice):/.test(step)),
        seccomp: how.filter,
        timeoutMs: request.timeoutMs,
      },
    };
  }

  /** The warm interpreter's argv for `-c` program `code` with `modules` imported beforehand. */
  #zygoteArgv(code: string, modules: readonly string[]): string[] {
    const key = JSON.stringify([code, modules]);
    let argv = this.#zygotes.get(key);
    if (!argv) {
      argv = [
        this.#launcher!,
        "noctty",
        ...(this.niceness > 0 ? [`nice:${this.niceness}`] : []),
        "--",
        ...warmJailArgs(this.isolation.mounts!, this.isolation.cgroup !== null),
        "python3",
        ...WARM_FLAGS,
        "-c",
        zygoteProgram(code, modules),
      ];
      this.#zygotes.set(key, argv);
    }
    return argv;
  }

  /**
   * The `-c` program of a run the warm interpreter may start (see {@linkcode RunRequest.warm}), or
   * null: it must start cold.
   */
  #warmCode(
    request: RunRequest,
    how: { jailed: boolean; user: UserLease | null },
  ): string | null {
    const [program, ...args] = request.argv;
    if (!request.warm || !this.#warm || !how.jailed || !how.user || !this.#launcher) return null;
    if (program !== "python3" || args.length !== WARM_FLAGS.length + 2) return null;
    const same = WARM_FLAGS.every((flag, i) => args[i] === flag) && args.at(-2) === "-c";
    return same ? args.at(-1)! : null;
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

  /**
   * What the launcher execs: the program in a session of its own (as root: after dropping to the
   * sandbox's uid) without a jail, `bwrap ... [setpriv] program args` with one (`setpriv` only as
   * root, to the sandbox's uid). `last`, with the compiled launcher: the jail's launcher ends with
   * that step instead of the drop and the program (`hold:NONCE` for a warm run, `await` for a jail
   * made ahead, which gets both with its run). `inJail`: the launcher's steps in the jail, before
   * the program (the compiled launcher only).
   */
  #wrap(
    request: RunRequest,
    how: { jailed: boolean; filter: string | null; user: UserLease | null },
    options: { last?: string; inJail?: string[] } = {},
  ): Pick<LaunchPlan, "command" | "drop" | "setsid"> {
    const { last, inJail = [] } = options;
    const [program, ...args] = request.argv;
    const command = [this.#program(program), ...args];
    if (!how.jailed) {
      return { command, drop: how.user?.uid ?? null, setsid: this.isolation.setsid };
    }
    // A jail made ahead drops to its uid when its run comes.
    const uid = last === "await" ? null : how.user?.uid ?? null;
    const first = jailFirst(this.#launcher, this.isolation.mounts!, uid, inJail);
    const jail = jailArgs(this.isolation.mounts!, this.#limits, {
      cwd: request.cwd,
      writable: request.writable ?? [],
      readOnly: request.readOnly ?? [],
      binds: request.binds ?? [],
      // The deno executable may live anywhere (e.g. an npm cache in HOME): bind just that file.
      files: [
        ...(program === "deno" && this.#denoPath.includes("/") ? [this.#denoPath] : []),
        ...(first.file ? [first.file] : []),
      ],
      asRoot: how.user !== null,
      seccomp: how.filter !== null,
      setpriv: first.setpriv,
      newSession: first.newSession,
    });
    if (last) {
      // The warm interpreter forks the program in, or the run comes later: the jail's launcher
      // ends with that step.
      return { command: [...jail, ...first.argv.slice(0, -1), last, "--"] };
    }
    return { command: [...jail, ...first.argv, ...command] };
  }

  /**
   * The launcher's `ulimit` steps (the shell sets them on itself before it execs the chain, so no
   * `prlimit` process sits in between). File size and address space are rounded down to whole
   * units of `ulimit` (512-byte blocks, KiB).
   */
  #rlimitSteps(program: string, request: RunRequest, extra: number): string[] {
    const limits = this.#limits;
    const cpu = Math.min(limits.cpuSeconds, Math.ceil(request.timeoutMs / 1000) + 1);
    const steps = [
      `ulimit:t=${cpu}`,
      `ulimit:f=${Math.floor(limits.fileSizeBytes / 512)}`,
      `ulimit:n=${limits.openFiles}`,
      // No core dumps, soft and hard: a crash would otherwise hand the child's memory to the
      // host's core_pattern helper (root, outside every namespace) or fill the workspace.
      "ulimit:c=0",
      // As root each sandbox has a uid of its own, so the per-user count is the sandbox's. With a
      // cgroup, that cap comes first (it can say it was hit); the rlimit stays a backstop.
      `nproc:${
        (this.isolation.users && this.isolation.cgroup ? limits.processes + 16 : limits.processes) +
        extra
      }`,
    ];
    if (program !== "deno") steps.push(`ulimit:v=${Math.floor(limits.addressSpaceBytes / 1024)}`);
    // The sh fallback has no niceness of its own to set (renice is another program).
    if (this.#launcher && limits.niceness > 0) steps.push(`nice:${limits.niceness}`);
    return steps;
  }
}

/** The folders a run may write, which as root are handed to its uid before it starts. */
function handedOver(request: RunRequest): string[] {
  return [request.cwd, ...(request.writable ?? [])];
}

/** The launcher's steps that hand `request`'s folders to `uid` (see {@linkcode handedOver}). */
function chownSteps(request: RunRequest, uid: number): string[] {
  return handedOver(request).map((dir) => `chown:${uid}:${dir}`);
}

/** How long a jail made ahead waits for its run before it ends unused. */
const AHEAD_IDLE_MS = 60_000;

/**
 * `env` as a spawned program gets it through bwrap: Deno hands a child its environment sorted by
 * name, and bwrap then sets `PWD` to the folder it starts its program in (in place, else last).
 */
function spawnedEnvironment(env: Record<string, string>, cwd: string): string[] {
  const bytes = new TextEncoder();
  const names = Object.keys(env).sort((a, b) => compareBytes(bytes.encode(a), bytes.encode(b)));
  const entries = names.map((name) => `${name}=${name === "PWD" ? cwd : env[name]}`);
  return "PWD" in env ? entries : [...entries, `PWD=${cwd}`];
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Whether `child` is its launcher's failed set-up: exit 125 with the line only the launcher can end
 * with the run's `tag`. Nothing of the program ran then.
 */
function launchFailed(child: ChildResult, tag: string): boolean {
  const firstLine = child.stderr.split("\n")[0];
  return child.code === LAUNCH_FAILED && firstLine.startsWith("patchgym: cannot set up") &&
    firstLine.endsWith(` [${tag}]`);
}

/** Where a jailed child works: the workspace, extra binds, single files to show. */
interface JailPlaces {
  cwd?: string;
  writable: string[];
  readOnly: string[];
  /** Read-only binds of a source at another place (after the workspace's own binds). */
  binds?: { source: string; dest: string }[];
  files: string[];
  /** bwrap runs as root (no user namespace; `setpriv` drops to the sandbox's uid after it). */
  asRoot?: boolean;
  /** Whether the launcher opened the seccomp filter on {@linkcode SECCOMP_FD}. */
  seccomp?: boolean;
  /**
   * Whether `setpriv` drops root in the jail (the sh fallback as root); otherwise it is not bound:
   * one program less in the jail, and one bind less (each costs bwrap a read of the mount table).
   */
  setpriv?: boolean;
  /** bwrap gives the program a session of its own (the sh fallback; see `jailFirst`). */
  newSession?: boolean;
}

/** The bwrap command line up to and including `--`, for `plan` and one run's places. */
function jailArgs(runtime: MountPlan, limits: ResourceLimits, places: JailPlaces): string[] {
  const mounts = mountsFor(runtime, places.files).filter((m) =>
    places.setpriv || m.dest !== runtime.setpriv
  );
  const args = ["bwrap", ...(places.asRoot ? ROOT_JAIL_NAMESPACES : JAIL_NAMESPACES)];
  if (places.newSession) args.push("--new-session");
  // Fresh, size-capped /tmp and /dev/shm, writable by any uid (sticky), so a command cannot fill
  // the host's; a write past the cap fails with ENOSPC while it is made.
  args.push(
    "--dev",
    "/dev",
    "--perms",
    "1777",
    "--size",
    String(limits.shmBytes),
    "--tmpfs",
    "/dev/shm",
    "--proc",
    "/proc",
    // Read-only: a file of /proc that a process may write acts on the process, and on what it
    // shares outside the jail: its session's scheduling group (`autogroup`, the orchestrator's
    // with the compiled launcher, whose niceness the jail raised for every process of the
    // session), or pid 1, bwrap's, through `mem`. Reads, and links to what the jail opened
    // (/proc/self/fd/N, /dev/stdout), are as before.
    "--remount-ro",
    "/proc",
    "--perms",
    "1777",
    "--size",
    String(limits.tmpBytes),
    "--tmpfs",
    "/tmp",
  );
  const binds = [
    ...(places.cwd ? [places.cwd] : []),
    ...places.writable,
    ...places.readOnly,
  ];
  if (places.asRoot) {
    // bwrap makes the folders above a mount point with the host folder's mode (or 0700): the
    // sandbox's uid must be able to pass through them, as nobody can on the host (/root, a 0700
    // temp folder).
    const dests = [
      ...mounts.map((m) => m.dest),
      ...places.files,
      "/etc/passwd",
      ...binds,
    ];
    for (const dir of ancestorsOf(dests)) args.push("--perms", "0755", "--dir", dir);
  }
  args.push(...mountArgs(mounts));
  for (const file of places.files) args.push("--ro-bind", file, file);
  args.push(
    "--perms",
    "0644",
    "--file",
    "3",
    "/etc/passwd",
    "--perms",
    "0644",
    "--file",
    "4",
    "/etc/group",
  );
  // A read-only path's folders inside a writable place become mount points of their own (still
  // writable): renaming or removing a mount point fails (EBUSY), so code in the jail cannot move
  // `tests/` away and put its own `tests/test_x.py` under the trusted name. Parents are bound
  // before what is inside them, which a later bind of a parent would hide.
  const writableRoots = [...(places.cwd ? [places.cwd] : []), ...places.writable];
  const rw = [...writableRoots, ...foldersBetween(writableRoots, places.readOnly)];
  for (const path of rw.sort((a, b) => a.split("/").length - b.split("/").length)) {
    args.push("--bind", path, path);
  }
  for (const path of places.readOnly) args.push("--ro-bind", path, path);
  for (const bind of places.binds ?? []) args.push("--ro-bind", bind.source, bind.dest);
  if (places.seccomp) args.push("--seccomp", String(SECCOMP_FD));
  // The root itself (a tmpfs holding the mount points) is read-only too.
  args.push("--remount-ro", "/", "--chdir", places.cwd ?? "/", "--");
  return args;
}

/**
 * Whether a warm program can take `env` as a cold one gets it: Python's `os.environ` refuses a
 * name that is empty or holds "=" (a cold run gets `A=B=c` as `A` = `B=c`), and would write a lone
 * surrogate as a raw byte where Deno writes U+FFFD; and a run's own `PATH` finds `python3` (its
 * `sys.executable`) where the warm interpreter's did not look. Such a run starts cold.
 */
function warmEnvironment(request: RunRequest, env: Record<string, string>): boolean {
  if (request.env && "PATH" in request.env) return false;
  return Object.entries(env).every(([name, value]) =>
    name !== "" && !name.includes("=") && name.isWellFormed() && value.isWellFormed()
  );
}

/**
 * The warm interpreter's bwrap command line up to `--`: the jail's own mounts of the programs'
 * files, so that the interpreter starts as a run's does in its jail (the same `sys.path`, locale,
 * executable), but the host's PID namespace, /proc and cgroups, as root: it finds the runs'
 * jails and enters them (`_zygote.ts`). No workspace, no key, nothing writable but its /tmp and
 * the cgroup files it joins runs to.
 */
function warmJailArgs(runtime: MountPlan, cgroups: boolean): string[] {
  const mounts = mountsFor(runtime, []).filter((m) => m.dest !== runtime.setpriv);
  return [
    "bwrap",
    "--unshare-ipc",
    "--unshare-net",
    "--unshare-uts",
    "--die-with-parent",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--remount-ro",
    "/proc",
    "--tmpfs",
    "/tmp",
    ...mountArgs(mounts),
    ...(cgroups ? ["--bind", "/sys/fs/cgroup", "/sys/fs/cgroup"] : []),
    "--remount-ro",
    "/",
    "--chdir",
    "/",
    "--",
  ];
}

/**
 * The folders strictly between a root of `roots` and each of `paths` under it, parents first (for a
 * root `/w` and a path `/w/a/b/f`: `/w/a`, `/w/a/b`).
 */
export function foldersBetween(roots: string[], paths: string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    // Every root above the path (a writable place inside the workspace too): a folder above a
    // nested mount point can be renamed as well.
    for (const root of roots.filter((r) => path.startsWith(`${r}/`))) {
      for (let dir = dirname(path); dir.startsWith(`${root}/`); dir = dirname(dir)) {
        if (!roots.includes(dir)) found.add(dir);
      }
    }
  }
  return [...found].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
}

/**
 * The folders above `paths`, parents first, but none at or under one of `paths` (a bound
 * workspace: making a folder there would change the host's) and none of the jail's own mounts.
 */
function ancestorsOf(paths: string[]): string[] {
  const found = new Set<string>();
  for (const path of paths) {
    for (let dir = dirname(path); dir !== "/" && dir !== "."; dir = dirname(dir)) found.add(dir);
  }
  // A folder is left out when it or a folder above it is one of `paths` (or /dev, /proc): a walk
  // up each folder against a set, not a scan of every path (a jail binds hundreds).
  const excluded = new Set([...paths, "/dev", "/proc"]);
  const kept: { dir: string; depth: number }[] = [];
  for (const dir of found) {
    if (dir === "/tmp") continue;
    let under = false;
    for (let up = dir; up !== "/" && up !== "."; up = dirname(up)) {
      if (excluded.has(up)) {
        under = true;
        break;
      }
    }
    if (!under) kept.push({ dir, depth: dir.split("/").length });
  }
  return kept
    .sort((a, b) => a.depth - b.depth || (a.dir < b.dir ? -1 : 1))
    .map((entry) => entry.dir);
}

/**
 * Refuse to bind a path that is not its own real path. bwrap follows symlinks in a bind's path, on
 * the host for its source and inside the jail for its destination, so a link that code under test
 * planted in the workspace (a test file replaced by `../../..`) would mount whatever it leads to,
 * up to the host's root. A path with no symlink in it names one place on both sides; nothing the
 * agent runs is alive between this check and the mount (every run's processes are gone when it
 * returns).
 */
function checkBinds(paths: string[]): void {
  for (const path of paths) {
    // Synchronous: a few microseconds each, against tens for a hand-off to the blocking pool.
    let real: string | null = null;
    try {
      real = Deno.realPathSync(path);
    } catch {
      // Missing (or unreadable): refused below.
    }
    if (real === path) continue;
    throw new SandboxError(
      `Cannot bind "${path}" into the jail: ${
        real === null ? "it does not exist" : `it leads through a symlink to "${real}"`
      }`,
    );
  }
}

/** What {@linkcode probeIsolation} may use besides the jail it finds. */
export interface ProbeOptions {
  /** As root: the host uids sandboxes run as (default {@linkcode DEFAULT_USER_RANGE}). */
  users?: UserRange;
  /** As root without bwrap: run agent code anyway (`--unsafe-root-without-jail`). */
  unjailedRoot?: boolean;
  /**
   * The compiled launcher to use, or null for the `sh` fallback (default: `findLauncher()`, which
   * builds one when this process may run programs).
   */
  launcher?: string | null;
  /**
   * The prepared programs folder, or why there is none (default: `findProgramFolder()`, which
   * checks the one `launch.ts` named or builds one when this process may run programs).
   */
  programs?: ProgramFolderFind;
}

/**
 * Find out once what isolation this machine allows: bwrap when it can start a jail with the mount
 * allowlist (as root: and drop to a sandbox uid in it), the seccomp filter when the kernel takes it,
 * rlimits when the launcher can set them, per-sandbox cgroups when they can be made.
 * `wanted: "none"` skips the bwrap probe.
 */
export async function probeIsolation(
  wanted: "auto" | "bwrap" | "none" = "auto",
  options: ProbeOptions = {},
): Promise<IsolationInfo> {
  const { launcher, launcherReason, uid } = await probeLauncher(options.launcher);
  const [rlimits, cgroups] = await Promise.all([
    runArgv(launchArgv(launcher, {
      steps: ["ulimit:n=64", "nproc:4096", "ulimit:v=4194304"],
      command: ["true"],
    })),
    probeCgroups(launcher),
  ]);
  const hostRoot = uid === "0";
  const users = hostRoot ? options.users ?? DEFAULT_USER_RANGE : null;
  const base = {
    rlimits: rlimits.success,
    cgroup: cgroups.support,
    ...(cgroups.reason ? { cgroupReason: cgroups.reason } : {}),
    setsid: findProgram("setsid") !== null,
    hostRoot,
    users,
    unjailedRoot: options.unjailedRoot ?? false,
    launcher,
    ...(launcherReason ? { launcherReason } : {}),
  };
  const unjailed = (reason: string): IsolationInfo => {
    if (wanted === "bwrap") {
      throw new SandboxError(
        `Cannot use bwrap isolation: ${reason}; install bubblewrap or pass --isolation auto`,
      );
    }
    return { level: "process", ...base, seccomp: null, mounts: null, reason };
  };
  if (wanted === "none") return unjailed('isolation "none" was requested');
  const mounts = planMounts(await pythonPaths(launcher), options.programs ?? await programs(uid));
  if (hostRoot && !launcher && !mounts.setpriv) {
    return unjailed(
      "setpriv (util-linux) is missing and there is no compiled launcher, so the jail cannot drop root",
    );
  }
  const filter = filterHex();
  const probe = async (seccomp: boolean, hide: boolean) => {
    const uid = users?.first ?? JAIL_UID;
    const first = jailFirst(launcher, mounts, users ? uid : null);
    return await runArgv(launchArgv(launcher, {
      steps: [...jailSteps(launcher), ...(hide ? ["hide"] : [])],
      jail: { ...jailUsersOf(uid), seccomp: seccomp ? filter : null },
      command: [
        ...jailArgs(mounts, DEFAULT_LIMITS, {
          writable: [],
          readOnly: [],
          files: first.file ? [first.file] : [],
          asRoot: hostRoot,
          seccomp,
          setpriv: first.setpriv,
          newSession: first.newSession,
        }),
        ...first.argv,
        "true",
      ],
    }));
  };
  const workspaceMounts = hostRoot && (await runHelper(launcher, "mount-probe")).success;
  // Kept only where a jail still starts with it (else the jail goes on without it).
  const hideMounts = hostRoot && launcher !== null && (await probe(false, true)).success;
  if (filter && (await probe(true, hideMounts)).success) {
    return { level: "bwrap", ...base, seccomp: filter, mounts, workspaceMounts, hideMounts };
  }
  // An installed bwrap that fails may have met a passing shortage (namespaces or processes of a
  // loaded machine): it gets three tries before the run goes without the jail, and the reason
  // quotes bwrap's own words, so a lost jail is never mistaken for a missing one.
  const installed = findProgram("bwrap") !== null;
  let plain = await probe(false, hideMounts);
  for (let tries = 1; installed && !plain.success && tries < 3; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100 * tries));
    plain = await probe(false, hideMounts);
  }
  if (plain.success) {
    return { level: "bwrap", ...base, seccomp: null, mounts, workspaceMounts, hideMounts };
  }
  const said = plain.stderr.trim().split("\n")[0];
  if (users && /setpriv/.test(plain.stderr)) {
    return unjailed(
      `the jail cannot drop to sandbox uid ${users.first} (${said}); choose uids this machine maps with --sandbox-uids`,
    );
  }
  return unjailed(
    installed
      ? `bwrap is installed but cannot start a jail here (${said || "no message"})`
      : "bwrap is not installed",
  );
}

/**
 * The launcher to use and the uid this process runs as (read by the launcher: `Deno.uid()` needs
 * --allow-sys): the compiled one when it is there and may be run, else `sh`, and why.
 */
async function probeLauncher(
  wanted: string | null | undefined,
): Promise<{ launcher: Launcher; launcherReason?: string; uid: string }> {
  const found: { path: string | null; reason?: string } = wanted === undefined
    ? await findLauncher()
    : wanted === null
    ? { path: null, reason: "the sh launcher was asked for" }
    : { path: wanted };
  if (found.path) {
    const out = await runHelper(found.path, "uid");
    if (out.success) return { launcher: found.path, uid: out.stdout.trim() };
    found.reason = `"${found.path}" cannot be run: ${out.stderr.trim().split("\n")[0]}`;
  }
  const out = await runHelper(null, "uid");
  return { launcher: null, launcherReason: found.reason ?? "none", uid: out.stdout.trim() };
}

/** The compiled seccomp filter as hex, or null. */
function filterHex(): string | null {
  const bytes = compileFilter();
  if (!bytes) return null;
  filterText ??= [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return filterText;
}
let filterText: string | undefined;

/**
 * The programs folder for this machine's allowlisted programs (`program_folder.ts`), for a process
 * running as `uid`, or why each program is bound on its own.
 */
async function programs(uid: string): Promise<ProgramFolderFind> {
  try {
    return await findProgramFolder(
      programEntries([Deno.execPath()]),
      /^\d+$/.test(uid) ? Number(uid) : null,
    );
  } catch (error) {
    // A program whose real path this process may not read (outside /usr): bound as before.
    return { folder: null, reason: `cannot read the allowlisted programs: ${String(error)}` };
  }
}

/** The library folders of the `python3` children get (none when there is no python3). */
async function pythonPaths(launcher: Launcher): Promise<string[]> {
  const out = await runArgv(launchArgv(launcher, {
    steps: [],
    command: [
      "python3",
      "-I",
      "-c",
      "import json, sys; print(json.dumps([sys.base_prefix, sys.path]))",
    ],
  }));
  if (!out.success) return [];
  const [prefix, path] = JSON.parse(out.stdout) as [string, string[]];
  return pythonLibraryPaths(path, prefix);
}

/** A fresh secret for one run's launcher (see `LaunchPlan.tag`). */
function randomTag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
