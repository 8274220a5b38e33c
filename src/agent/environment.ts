/**
 * The environment a run works in: the task set, pristine snapshots read once per task, the
 * sandbox with this machine's isolation, and the root under which per-rollout workspaces
 * and scoring copies are made.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { gradePatch, type GradeResult } from "../reward/grade.ts";
import {
  type IsolationInfo,
  probeIsolation,
  type ResourceLimits,
  Sandbox,
} from "../sandbox/sandbox.ts";
import { checkTaskIds, listTaskIds, loadTask } from "../task/load.ts";
import { defaultCacheRoot } from "../env/build.ts";
import { type ResolvedEnvironment, resolveTaskEnvironment } from "../env/resolve.ts";
import type { Task } from "../task/spec.ts";
import { type Snapshot, snapshotDir } from "../workspace/snapshot.ts";
import { createWorkspace, startWorkspace, Workspace } from "../workspace/workspace.ts";
import { DEFAULT_TOOL_LIMITS, type ToolLimits } from "../tools/types.ts";

/** The default workspace root; also named in the permission flags of deno.json. */
export const DEFAULT_WORK_ROOT = "/tmp/patchgym";

/** How to open an environment. */
export interface EnvironmentOptions {
  tasksDir: string;
  /** Root for workspaces and scoring copies (default {@linkcode DEFAULT_WORK_ROOT}). */
  workRoot?: string;
  isolation?: "auto" | "bwrap" | "none";
  /** The `deno` children use for TypeScript tests (default: this process's own). */
  denoPath?: string;
  /** Bounds on tool calls (default {@linkcode DEFAULT_TOOL_LIMITS}). */
  limits?: Partial<ToolLimits>;
  /** Caps for every child (default: the sandbox's `DEFAULT_LIMITS`). */
  sandboxLimits?: Partial<ResourceLimits>;
  /** Where kept workspaces go (default: the workspace root); see `Workspace.keep`. */
  keepRoot?: string;
  /** Where built dependency environments are cached (default: `defaultCacheRoot()`). */
  envCache?: string;
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
    this.#envCache = options.envCache ?? defaultCacheRoot();
  }

  /** Probe isolation and prepare the workspace root. */
  static async open(options: EnvironmentOptions): Promise<Environment> {
    const tasksDir = resolve(options.tasksDir);
    const workRoot = resolve(options.workRoot ?? DEFAULT_WORK_ROOT);
    mkdirSync(workRoot, { recursive: true });
    const isolation = await probeIsolation(options.isolation ?? "auto");
    const sandbox = new Sandbox({
      isolation,
      denoPath: options.denoPath ?? defaultDenoPath(),
      limits: options.sandboxLimits,
    });
    return new Environment(tasksDir, workRoot, sandbox, options);
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
    const create = options.background ? startWorkspace : createWorkspace;
    let snapshot;
    try {
      snapshot = this.snapshot(task);
    } catch (error) {
      if (!options.background) throw error;
      // Reported where the files are first needed, so the sample still ends with a record.
      return failedWorkspace(this.workRoot, task.spec.id, error);
    }
    return create(snapshot, {
      root: this.workRoot,
      prefix: task.spec.id,
      keepRoot: this.#keepRoot,
    });
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

  /** Grade a patch against the task's hidden tests. */
  async grade(task: Task, patch: string): Promise<GradeResult> {
    const environment = this.environment(task);
    return await gradePatch(task, patch, {
      sandbox: this.sandbox,
      workRoot: this.workRoot,
      snapshot: this.snapshot(task),
      ...(environment ? { environment } : {}),
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
