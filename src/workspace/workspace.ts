/**
 * Per-rollout workspaces: a fresh private copy of a task repository under a workspace root,
 * written in-process from an in-memory snapshot, guarded, diffable and removed afterwards.
 */
import { realpathSync } from "node:fs";
import { diffTree, type WorkspaceDiff } from "./diff.ts";
import { type GuardOptions, guardPath, type GuardResult } from "./guard.ts";
import { type Snapshot, writeSnapshot, writeSnapshotAsync } from "./snapshot.ts";

/** Options for {@linkcode createWorkspace} and {@linkcode startWorkspace}. */
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
  /**
   * Settles once the files are on disk: at once for {@linkcode createWorkspace}, later for
   * {@linkcode startWorkspace}. Rejects when writing them failed (the folder is then removed).
   */
  readonly ready: Promise<void>;

  constructor(dir: string, original: Snapshot, ready: Promise<void> = Promise.resolve()) {
    this.dir = dir;
    this.original = original;
    this.ready = ready;
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
    // Never race a write still in flight: it could recreate files after the removal.
    await this.ready.catch(() => {});
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

/**
 * Create a fresh workspace whose folder and files are written in the background: they exist once
 * {@linkcode Workspace.ready} settles. A sample's first model request needs no files, so with many
 * samples started at once their copies are written while the requests are in flight instead of
 * holding every request back until all copies are done.
 */
export function startWorkspace(snapshot: Snapshot, options: WorkspaceOptions): Workspace {
  // The name is chosen here (as makeTempDir would) so that the folder itself is made off-thread.
  const name = `${options.prefix ?? "ws"}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const dir = `${realpathSync(options.root)}/${name}`;
  const ready = (async () => {
    await Deno.mkdir(dir, { mode: 0o700 });
    await writeSnapshotAsync(snapshot, dir);
  })().catch(async (error) => {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw error;
  });
  // Whoever awaits `ready` sees a failure; until then it must not count as unhandled.
  ready.catch(() => {});
  return new Workspace(dir, snapshot, ready);
}
