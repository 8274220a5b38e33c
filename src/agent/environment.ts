/**
 * The environment a run works in: the task set, pristine snapshots read once per task, the
 * sandbox with this machine's isolation, and the root under which per-rollout workspaces
 * and scoring copies are made.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { gradePatch, type GradeResult } from "../reward/grade.ts";
import { SandboxError } from "../errors.ts";
import {
  type IsolationInfo,
  type IsolationRequirement,
  probeIsolation,
  type ResourceLimits,
  Sandbox,
  unmetRequirement,
} from "../sandbox/sandbox.ts";
import type { RunSlots } from "../sandbox/run_slots.ts";
import type { UserRange } from "../sandbox/users.ts";
import { checkTaskIds, listTaskIds, loadTask } from "../task/load.ts";
import { defaultCacheRoot } from "../env/build.ts";
import { type ResolvedEnvironment, resolveTaskEnvironment } from "../env/resolve.ts";
import type { RunnerName, Task } from "../task/spec.ts";
import {
  REPORT_FOLDER_BYTES,
  REPORT_FOLDER_ENTRIES,
  runnerProblem,
} from "../sandbox/test_runner.ts";
import { type Snapshot, snapshotDir } from "../workspace/snapshot.ts";
import {
  createWorkspace,
  startWorkspace,
  Workspace,
  type WorkspaceMount,
} from "../workspace/workspace.ts";
import { MAX_GROWTH_ENTRIES } from "../workspace/limits.ts";
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from "../tools/types.ts";
import { patchgymCommand } from "../hint.ts";
import { ownId } from "../own_id.ts";

/** The workspace root of root and of a compiled binary, whose baked permission flags name it. */
export const SHARED_WORK_ROOT = "/tmp/patchgym";

/**
 * The default workspace root: {@linkcode SHARED_WORK_ROOT} for root and for a compiled binary,
 * `/tmp/patchgym-UID` for any other user. Users of one machine never meet in a root one of them
 * made: another user's root is one this user may not write, or may not trust (see `claimRoot`).
 */
export function defaultWorkRoot(uid: number | null = ownId("u")): string {
  return uid === null || uid === 0 || Deno.build.standalone
    ? SHARED_WORK_ROOT
    : `${SHARED_WORK_ROOT}-${uid}`;
}

/** How to open an environment. */
export interface EnvironmentOptions {
  tasksDir: string;
  /** Root for workspaces and scoring copies (default {@linkcode defaultWorkRoot}). */
  workRoot?: string;
  isolation?: "auto" | "bwrap" | "none";
  /** The `deno` children use for TypeScript tests (default: this process's own). */
  denoPath?: string;
  /** Bounds on tool calls (default {@linkcode DEFAULT_TOOL_LIMITS}). */
  limits?: Partial<ToolLimits>;
  /** Caps for every child (default: the sandbox's `DEFAULT_LIMITS`). */
  sandboxLimits?: Partial<ResourceLimits>;
  /**
   * Sandboxed runs at once in this environment; more wait their turn (see `Sandbox.runSlots`).
   * Slots given as a `RunSlots` may be shared with other sandboxes of this thread.
   */
  runSlots?: number | RunSlots;
  /** Where kept workspaces go (default: the workspace root); see `Workspace.keep`. */
  keepRoot?: string;
  /** As root: the host uids sandboxes run as (default `DEFAULT_USER_RANGE`). */
  sandboxUsers?: UserRange;
  /** As root without bwrap: run agent code anyway (`--unsafe-root-without-jail`). */
  unjailedRoot?: boolean;
  /** Start every Python test run cold, never from the warm interpreter (`--cold-python`). */
  coldPython?: boolean;
  /**
   * Make each command's jail when it comes, never ahead while the model answers
   * (`--on-demand-jails`; see `RunRequest.ahead`).
   */
  onDemandJails?: boolean;
  /** Refuse to open unless this machine gives at least this isolation. */
  requireIsolation?: IsolationRequirement;
  /** Where built dependency environments are cached (default: `defaultCacheRoot()`). */
  envCache?: string;
  /** Isolation already probed (e.g. by the process that starts worker threads): no probe again. */
  probed?: IsolationInfo;
}

/**
 * Everything needed to open the same environment elsewhere (a worker thread): plain data, with
 * the isolation already probed.
 */
export interface EnvironmentSpec extends Omit<EnvironmentOptions, "runSlots"> {
  workRoot: string;
  probed: IsolationInfo;
  runSlots?: number;
}

/**
 * The `deno` that runs TypeScript tests: this process's own executable, except in a compiled
 * binary (which is not a full deno), where `PATCHGYM_DENO` or `deno` on PATH is used.
 */
export function defaultDenoPath(): string {
  if (!Deno.build.standalone) return Deno.execPath();
  try {
    return Deno.env.get("PATCHGYM_DENO") || "deno";
  } catch {
    return "deno";
  }
}

/** Tasks, snapshots, the sandbox and the workspace root for a run. */
export class Environment {
  readonly tasksDir: string;
  readonly workRoot: string;
  readonly sandbox: Sandbox;
  /** Bounds every episode's tool calls get. */
  readonly limits: ToolLimits;
  readonly #keepRoot: string | undefined;
  readonly #options: EnvironmentOptions;
  readonly #tasks = new Map<string, Task>();
  readonly #snapshots = new Map<string, Snapshot>();
  readonly #environments = new Map<string, ResolvedEnvironment | null>();
  readonly #envCache: string;

  private constructor(
    tasksDir: string,
    workRoot: string,
    sandbox: Sandbox,
    options: EnvironmentOptions,
  ) {
    this.tasksDir = tasksDir;
    this.workRoot = workRoot;
    this.sandbox = sandbox;
    this.limits = { ...DEFAULT_TOOL_LIMITS, ...options.limits };
    this.#keepRoot = options.keepRoot;
    this.#options = options;
    this.#envCache = options.envCache ?? defaultCacheRoot();
  }

  /** Probe isolation and prepare the workspace root. */
  static async open(options: EnvironmentOptions): Promise<Environment> {
    const tasksDir = resolve(options.tasksDir);
    const workRoot = resolve(options.workRoot ?? defaultWorkRoot());
    mkdirSync(workRoot, { recursive: true });
    const isolation = options.probed ?? await probeIsolation(options.isolation ?? "auto", {
      users: options.sandboxUsers,
      unjailedRoot: options.unjailedRoot,
    });
    const unmet = unmetRequirement(isolation, options.requireIsolation ?? "none");
    if (unmet) {
      throw new SandboxError(
        `Cannot start: --require-isolation ${options.requireIsolation} is not met on this machine: ${unmet}; run "${
          patchgymCommand("doctor")
        }" for what holds here`,
      );
    }
    const sandbox = new Sandbox({
      isolation,
      denoPath: options.denoPath ?? defaultDenoPath(),
      limits: options.sandboxLimits,
      runSlots: options.runSlots,
      warm: !options.coldPython,
      ahead: !options.onDemandJails,
    });
    return new Environment(tasksDir, workRoot, sandbox, options);
  }

  /** What opens the same environment in another thread (see {@linkcode EnvironmentSpec}). */
  spec(): EnvironmentSpec {
    const { probed: _probed, ...options } = this.#options;
    return {
      ...options,
      tasksDir: this.tasksDir,
      workRoot: this.workRoot,
      denoPath: this.sandbox.denoPath,
      probed: this.isolation,
      // Another thread gets a count of its own, never this thread's slots.
      runSlots: this.sandbox.runSlots,
    };
  }

  /** What isolation children get. */
  get isolation(): IsolationInfo {
    return this.sandbox.isolation;
  }

  /** Ids of every task in the task folder. */
  taskIds(): string[] {
    return listTaskIds(this.tasksDir);
  }

  /** Load (once) and return a task. */
  task(id: string): Task {
    let task = this.#tasks.get(id);
    if (!task) {
      checkTaskIds(this.tasksDir, [id]);
      task = loadTask(`${this.tasksDir}/${id}`);
      this.#tasks.set(id, task);
    }
    return task;
  }

  /** Forget what was read of task `id` (its spec, repository and environment), after it changed. */
  forget(id: string): void {
    this.#tasks.delete(id);
    this.#snapshots.delete(id);
    this.#environments.delete(id);
  }

  /** The pristine repository of a task, read once. */
  snapshot(task: Task): Snapshot {
    let snapshot = this.#snapshots.get(task.spec.id);
    if (!snapshot) {
      snapshot = snapshotDir(task.repoDir);
      this.#snapshots.set(task.spec.id, snapshot);
    }
    return snapshot;
  }

  /**
   * A fresh private copy of the task repository; with `background`, its files are written while
   * the caller goes on (see {@linkcode startWorkspace}).
   */
  newWorkspace(task: Task, options: { background?: boolean } = {}): Workspace {
    let snapshot;
    try {
      snapshot = this.snapshot(task);
    } catch (error) {
      if (!options.background) throw error;
      // Reported where the files are first needed, so the sample still ends with a record.
      return failedWorkspace(this.workRoot, task.spec.id, error);
    }
    const mount = this.workspaceMount(snapshot);
    // A capped workspace is mounted before it is written, which only the background path does;
    // the episode waits for `ready` before its first tool call.
    const create = options.background || mount ? startWorkspace : createWorkspace;
    return create(snapshot, {
      root: this.workRoot,
      prefix: task.spec.id,
      keepRoot: this.#keepRoot,
      ...(mount ? { mount } : {}),
    });
  }

  /**
   * A capped file system for a copy of `snapshot` (see `Sandbox.workspaceMount`): room for the
   * repository in whole pages, the allowed growth and a little more, so a command that fills it is
   * stopped while writing and the growth check after it names the cap; and for a test run's report
   * folder, made beside the copy (see `Workspace.mountRoot`). Null where it cannot be made.
   */
  workspaceMount(snapshot: Snapshot): WorkspaceMount | undefined {
    let pages = 0;
    for (const file of snapshot.files) pages += Math.ceil(file.content.length / 4096);
    const bytes = pages * 4096 + this.limits.maxGrowthBytes + 4 * 1024 ** 2 + REPORT_FOLDER_BYTES;
    const entries = snapshot.files.length + snapshot.dirs.length + MAX_GROWTH_ENTRIES + 64 +
      REPORT_FOLDER_ENTRIES;
    return this.sandbox.workspaceMount(bytes, entries) ?? undefined;
  }

  /**
   * Why the runners of `tasks` cannot run on this machine (e.g. pytest missing in the jail), one
   * line each; empty when they all can. Tasks that fail to load are left to their own errors.
   */
  async runnerProblems(ids: string[]): Promise<string[]> {
    const runners = new Set<RunnerName>();
    for (const id of ids) {
      try {
        runners.add(this.task(id).spec.runner);
      } catch {
        // Reported where the task is used.
      }
    }
    const problems = await Promise.all(
      [...runners].sort().map((runner) => runnerProblem(this.sandbox, runner, this.workRoot)),
    );
    return problems.filter((p): p is string => p !== null);
  }

  /**
   * The task's dependency environment from the cache (looked up once), or null when the task
   * declares none; one that is not built carries an `error` (see `resolveTaskEnvironment`).
   */
  environment(task: Task): ResolvedEnvironment | null {
    if (!this.#environments.has(task.spec.id)) {
      this.#environments.set(task.spec.id, resolveTaskEnvironment(task, this.#envCache));
    }
    return this.#environments.get(task.spec.id) ?? null;
  }

  /** Grade a patch against the task's hidden tests (as an impossible sample on request). */
  grade(task: Task, patch: string, options: { impossible?: boolean } = {}): Promise<GradeResult> {
    const snapshot = this.snapshot(task);
    const mount = this.workspaceMount(snapshot);
    const environment = this.environment(task);
    return gradePatch(task, patch, {
      sandbox: this.sandbox,
      workRoot: this.workRoot,
      snapshot,
      ...(mount ? { mount } : {}),
      ...(environment ? { environment } : {}),
      impossible: options.impossible,
    });
  }
}

/** A workspace that was never written: its `ready` rejects with `error`; nothing is on disk. */
function failedWorkspace(root: string, prefix: string, error: unknown): Workspace {
  const ready = Promise.reject(error);
  ready.catch(() => {});
  const dir = `${root}/${prefix}-unwritten-${crypto.randomUUID().slice(0, 8)}`;
  return new Workspace(dir, { dirs: [], files: [], byPath: new Map() }, { ready });
}
