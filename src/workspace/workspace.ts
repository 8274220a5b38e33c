/**
 * Per-rollout workspaces: a fresh private copy of a task repository under a workspace root,
 * written in-process from an in-memory snapshot, guarded, diffable and removed afterwards.
 */
import { realpathSync } from "node:fs";
import { diffTree, type WorkspaceDiff } from "./diff.ts";
import { type GuardOptions, guardPath, type GuardResult } from "./guard.ts";
import { type Snapshot, writeSnapshot } from "./snapshot.ts";

/** Options for {@linkcode createWorkspace}. */
export interface WorkspaceOptions {
  /** Folder under which the workspace is created (must exist). */
  root: string;
  /** Prefix of the workspace folder name, e.g. the task id. */
  prefix?: string;
}

/** An isolated copy of a task repository for one rollout. */
export class Workspace {
  /** Real absolute path of the workspace folder. */
  readonly dir: string;
  /** The pristine repository it started from. */
  readonly original: Snapshot;

  constructor(dir: string, original: Snapshot) {
    this.dir = dir;
    this.original = original;
  }

  /** Resolve a path the agent named; see {@linkcode guardPath}. */
  resolve(path: string, options?: GuardOptions): GuardResult {
    return guardPath(this.dir, path, options);
  }

  /** The current state as a diff against the original. */
  diff(): WorkspaceDiff {
    return diffTree(this.original, this.dir);
  }

  /** Delete the workspace folder. Safe to call twice. */
  async remove(): Promise<void> {
    await Deno.remove(this.dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
}

/** Create a fresh workspace from `snapshot` under `options.root`. */
export function createWorkspace(snapshot: Snapshot, options: WorkspaceOptions): Workspace {
  const dir = Deno.makeTempDirSync({ dir: options.root, prefix: `${options.prefix ?? "ws"}-` });
  try {
    writeSnapshot(snapshot, dir);
  } catch (error) {
    Deno.removeSync(dir, { recursive: true });
    throw error;
  }
  return new Workspace(realpathSync(dir), snapshot);
}
