/**
 * Per-rollout workspaces: a fresh private copy of a task repository under a workspace root,
 * written in-process from an in-memory snapshot, guarded and removed afterwards
 * (`diffTree` in src/patch/diff.ts diffs one against its original).
 */
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { type GuardOptions, guardPath, type GuardResult } from "./guard.ts";
import { changedName, removeTree } from "./remove.ts";
import { type Snapshot, writeSnapshot, writeSnapshotAsync } from "./snapshot.ts";

/** Options for {@linkcode createWorkspace} and {@linkcode startWorkspace}. */
export interface WorkspaceOptions {
  /** Folder under which the workspace is created (must exist). */
  root: string;
  /** Prefix of the workspace folder name, e.g. the task id. */
  prefix?: string;
  /**
   * Where {@linkcode Workspace.keep} moves the folder (default: where it is). A process's own root
   * (see `claimRoot`) is removed at exit, so kept workspaces go to the shared root above it.
   */
  keepRoot?: string;
  /**
   * Write the workspace into a file system of its own (a size- and inode-capped tmpfs, see
   * `Sandbox.workspaceMount`), so what a command writes is capped while it writes. It is mounted
   * on a folder that holds the workspace (`work`) and the test runs' report folders beside it
   * (see {@linkcode Workspace.mountRoot}). Only {@linkcode startWorkspace} takes it.
   */
  mount?: WorkspaceMount;
}

/** A capped file system of a workspace's own, made on its empty folder and undone at the end. */
export interface WorkspaceMount {
  /** Mount it on `dir` (an empty folder). */
  mount(dir: string): Promise<void>;
  /** Unmount it from `dir` (nothing uses it any more); never throws. */
  unmount(dir: string): Promise<void>;
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
  /**
   * The folder the workspace was made in (the work root): for folders of the orchestrator's that no
   * episode may weigh on, such as a sandbox's checks (see `runnerProblem`).
   */
  readonly scratch: string;
  /**
   * With a file system of its own: the folder it is mounted on, which holds the workspace's folder
   * and where a test run makes its report folder (sharing the caps, with no mount of its own; see
   * `TestRunRequest.reportRoot`). Null without one.
   */
  readonly mountRoot: string | null;

  readonly #keepRoot: string | undefined;
  readonly #mount: WorkspaceMount | undefined;
  readonly #cleanups: (() => Promise<void>)[] = [];
  /** Set once the folder went (removed or kept): a cleanup given later runs at once. */
  #gone = false;

  constructor(
    dir: string,
    original: Snapshot,
    options: {
      ready?: Promise<void>;
      keepRoot?: string;
      /** The workspace's own file system, and the folder it is mounted on (above `dir`). */
      mount?: WorkspaceMount;
      mountRoot?: string;
    } = {},
  ) {
    this.dir = dir;
    this.original = original;
    this.ready = options.ready ?? Promise.resolve();
    this.scratch = dirname(options.mountRoot ?? dir);
    this.mountRoot = options.mountRoot ?? null;
    this.#keepRoot = options.keepRoot;
    this.#mount = options.mount;
  }

  /**
   * Call `cleanup` (and wait for it) before the folder is removed or kept: for what holds it, such
   * as a sandbox's jail made ahead for its next command (`RunRequest.ahead`).
   */
  onRemove(cleanup: () => Promise<void>): void {
    if (this.#gone) cleanup().catch(() => {});
    else this.#cleanups.push(cleanup);
  }

  async #cleanUp(): Promise<void> {
    this.#gone = true;
    const cleanups = this.#cleanups.splice(0);
    await Promise.all(cleanups.map((cleanup) => cleanup().catch(() => {})));
  }

  /** Resolve a path the agent named; see {@linkcode guardPath}. */
  resolve(path: string, options?: GuardOptions): GuardResult {
    return guardPath(this.dir, path, options);
  }

  /**
   * Keep the folder after the run: moved to the keep root when one was given, with every setuid,
   * setgid and sticky bit cleared (see {@linkcode clearSpecialModes}). Returns where it is now.
   */
  async keep(): Promise<string> {
    await this.ready.catch(() => {});
    await this.#cleanUp();
    const name = basename(this.mountRoot ?? this.dir);
    let target = this.#keepRoot ? join(this.#keepRoot, name) : this.dir;
    if (this.mountRoot) {
      // Its own file system goes away with the process: copy what it holds out of it.
      if (target === this.dir || target === this.mountRoot) {
        target = join(dirname(this.mountRoot), `${name}-kept`);
      }
      try {
        await copyTree(this.dir, target);
      } finally {
        // Even when a name the agent's code left cannot be copied: never a mount left behind.
        await this.remove();
      }
    } else if (target !== this.dir) {
      await Deno.rename(this.dir, target);
    }
    await clearSpecialModes(target);
    return target;
  }

  /** Delete the workspace folder. Safe to call twice. */
  async remove(): Promise<void> {
    // Never race a write still in flight: it could recreate files after the removal.
    await this.ready.catch(() => {});
    await this.#cleanUp();
    if (this.mountRoot) await this.#mount?.unmount(this.mountRoot);
    await removeTree(this.mountRoot ?? this.dir);
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
  return new Workspace(realpathSync(dir), snapshot, { keepRoot: options.keepRoot });
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
  const top = `${realpathSync(options.root)}/${name}`;
  const mount = options.mount;
  // With a file system of its own, the workspace is a folder in it, beside the runs' own folders.
  const dir = mount ? `${top}/${MOUNTED_WORKSPACE}` : top;
  const ready = (async () => {
    // Asynchronous: the folder is on the work root's disk, where making one can take a
    // millisecond (the files go into the workspace's own memory-backed mount when it has one).
    await Deno.mkdir(top, { mode: 0o700 });
    if (mount) {
      await mount.mount(top);
      // In the mount's memory: at once.
      Deno.mkdirSync(dir, { mode: 0o700 });
    }
    await writeSnapshotAsync(snapshot, dir);
  })().catch(async (error) => {
    await mount?.unmount(top);
    await removeTree(top).catch(() => {});
    throw error;
  });
  // Whoever awaits `ready` sees a failure; until then it must not count as unhandled.
  ready.catch(() => {});
  return new Workspace(dir, snapshot, {
    ready,
    keepRoot: options.keepRoot,
    ...(mount ? { mount, mountRoot: top } : {}),
  });
}

/** The workspace's folder in its own file system (see {@linkcode WorkspaceOptions.mount}). */
const MOUNTED_WORKSPACE = "work";

/**
 * Clear the setuid, setgid and sticky bits of everything under `dir` (symlinks are never followed),
 * so no file that code in a sandbox made leaves it able to raise anyone's privileges: a kept
 * workspace sits in a shared work root where any local user could run it. Nothing of the sandbox
 * is alive by now to swap an entry for a symlink between the check and the change.
 */
export async function clearSpecialModes(dir: string): Promise<number> {
  let cleared = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const path = pending.pop()!;
    const stat = await Deno.lstat(path).catch(() => null);
    if (!stat || stat.isSymlink) continue;
    const mode = stat.mode ?? 0;
    if ((mode & 0o7000) !== 0) {
      await Deno.chmod(path, mode & 0o777);
      cleared++;
    }
    if (stat.isDirectory) {
      for await (const entry of Deno.readDir(path)) {
        // Not a name Deno gave back changed (U+FFFD): it names another entry (see `reopenTree`).
        if (!changedName(entry.name)) pending.push(`${path}/${entry.name}`);
      }
    }
  }
  return cleared;
}

/** Copy the tree under `src` to a new folder `dst`: folders, files and symlinks (not followed). */
async function copyTree(src: string, dst: string): Promise<void> {
  await Deno.mkdir(dst, { mode: 0o700 });
  for await (const entry of Deno.readDir(src)) {
    const from = `${src}/${entry.name}`;
    const to = `${dst}/${entry.name}`;
    if (entry.isSymlink) await Deno.symlink(await Deno.readLink(from), to);
    else if (entry.isDirectory) await copyTree(from, to);
    else if (entry.isFile) await Deno.copyFile(from, to);
  }
}
