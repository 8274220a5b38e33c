/**
 * An in-memory image of a directory tree: the pristine task repository is read once per task and
 * every rollout's workspace is written from it, and the final diff compares against it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Pacer } from "./pacer.ts";

/** Folders never listed, copied into diffs or searched: VCS data, caches and dependencies. */
export const NOISE_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".venv",
  ".cache",
  ".tox",
]);

/**
 * Whether a file name is build noise left by running code (not part of a change), or a noise
 * folder's name (the `.git` file of a submodule or worktree, which points into version-control
 * data no snapshot holds and no patch may touch). The snapshot and the final diff both leave such
 * files out: one side alone made them look created or deleted in every diff.
 */
export function isNoiseFile(name: string): boolean {
  return name.endsWith(".pyc") || name.endsWith(".pyo") || NOISE_DIRS.has(name);
}

/** One regular file of a snapshot. */
export interface SnapshotFile {
  /** Path relative to the snapshot root, `/`-separated. */
  path: string;
  content: Uint8Array;
  /** Permission bits (0o755 for executables). */
  mode: number;
}

/** A directory tree held in memory, files sorted by path. */
export interface Snapshot {
  /** Directories relative to the root, parents before children. */
  dirs: string[];
  files: SnapshotFile[];
  /** Files by path, for diffing. */
  byPath: Map<string, SnapshotFile>;
}

/**
 * Read `dir` into a {@linkcode Snapshot}. Noise folders are skipped; symlinks and special files
 * are refused, since a task repository must be plain files.
 */
export function snapshotDir(dir: string): Snapshot {
  const dirs: string[] = [];
  const files: SnapshotFile[] = [];
  const walk = (rel: string) => {
    const entries = readdirSync(rel ? join(dir, rel) : dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (NOISE_DIRS.has(entry.name)) continue;
        dirs.push(path);
        walk(path);
      } else if (entry.isFile()) {
        if (isNoiseFile(entry.name)) continue;
        const abs = join(dir, path);
        const mode = Deno.statSync(abs).mode ?? 0o644;
        files.push({ path, content: readFileSync(abs), mode: mode & 0o777 });
      } else {
        throw new Error(
          `Cannot snapshot "${join(dir, path)}": only regular files and folders are allowed`,
        );
      }
    }
  };
  walk("");
  return { dirs, files, byPath: new Map(files.map((f) => [f.path, f])) };
}

/**
 * Write a snapshot under `root` (which must exist and be empty). Synchronous: it is faster for
 * many small files; {@linkcode writeSnapshotAsync} leaves the thread free between slices instead.
 */
export function writeSnapshot(snapshot: Snapshot, root: string): void {
  for (const dir of snapshot.dirs) Deno.mkdirSync(`${root}/${dir}`);
  for (const file of snapshot.files) {
    Deno.writeFileSync(`${root}/${file.path}`, file.content, { mode: file.mode });
  }
}

/**
 * Write a snapshot under `root` (which must exist and be empty) with synchronous calls in slices
 * (see {@linkcode Pacer}): a small file costs a few microseconds written synchronously and ten
 * times that as an asynchronous call, and a big tree still hands the event loop back every
 * millisecond (e.g. to other rollouts' model requests).
 */
export async function writeSnapshotAsync(snapshot: Snapshot, root: string): Promise<void> {
  const pacer = new Pacer();
  for (const dir of snapshot.dirs) {
    Deno.mkdirSync(`${root}/${dir}`);
    const pause = pacer.pause();
    if (pause) await pause;
  }
  for (const file of snapshot.files) {
    Deno.writeFileSync(`${root}/${file.path}`, file.content, { mode: file.mode });
    const pause = pacer.pause();
    if (pause) await pause;
  }
}
