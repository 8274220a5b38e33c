/**
 * How big a workspace may get: the final diff's cap (see `diffTree`) and a cap on how much the
 * workspace may grow over the task's repository, measured by stat only, never by reading files.
 */
import { Pacer } from "./pacer.ts";
import { changedName, reopenTree } from "./remove.ts";
import { isNoiseFile, NOISE_DIRS, type Snapshot } from "./snapshot.ts";

/** Default cap on how many bytes a workspace may grow over its repository (all files counted). */
export const DEFAULT_MAX_GROWTH_BYTES = 32 * 1024 * 1024;

/**
 * Cap on how many files, folders and links a workspace may gain over its repository: empty files
 * cost no bytes, and a command can leave about 130,000 of them in 20 seconds.
 */
export const MAX_GROWTH_ENTRIES = 20_000;

/** A workspace's size on disk. */
export interface WorkspaceUsage {
  /** Bytes of every regular file, noise folders included. */
  bytes: number;
  /** Bytes of the files a final diff counts: outside noise folders, no noise file. */
  diffBytes: number;
  /** The biggest files, largest first (at most 5). */
  largest: { path: string; bytes: number }[];
  /** Files, folders, links and anything else met, noise included. */
  entries: number;
  /**
   * Files and folders that exist but cannot be read by path (nested past `PATH_MAX`, or named in
   * bytes that are not UTF-8, which Deno cannot give back): what they hold is not counted, so they
   * are a problem of their own.
   */
  unreadable: string[];
}

/**
 * Measure the regular files under `dir` by stat only (symlinks not followed), synchronously in
 * slices (see {@linkcode Pacer}).
 */
export async function measureTree(dir: string): Promise<WorkspaceUsage> {
  const files: { path: string; bytes: number; noise: boolean }[] = [];
  const unreadable: string[] = [];
  let entries = 0;
  // Each folder with whether it is (in) a noise folder, which the final diff leaves out.
  const pending: { rel: string; noise: boolean }[] = [{ rel: "", noise: false }];
  const pacer = new Pacer();
  while (pending.length > 0) {
    const { rel, noise } = pending.pop()!;
    const names: { path: string; noise: boolean }[] = [];
    try {
      for (const entry of Deno.readDirSync(rel ? `${dir}/${rel}` : dir)) {
        entries++;
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        // U+FFFD is what Deno puts for bytes that are not UTF-8, and a real folder of that name
        // beside one would be walked in its place: both are unreadable.
        if (changedName(entry.name)) unreadable.push(path);
        else if (entry.isDirectory) {
          pending.push({ rel: path, noise: noise || NOISE_DIRS.has(entry.name) });
        } else if (entry.isFile) names.push({ path, noise: noise || isNoiseFile(entry.name) });
      }
    } catch (error) {
      // Listed by its parent a moment ago and no run going on: not found by that name means a
      // name that is not UTF-8 (Deno gives it back changed); else too deep to name. The root
      // itself may be gone.
      if (rel !== "" || !(error instanceof Deno.errors.NotFound)) unreadable.push(rel);
      continue;
    }
    for (const { path, noise } of names) {
      try {
        files.push({ path, bytes: Deno.lstatSync(`${dir}/${path}`).size, noise });
      } catch {
        unreadable.push(path);
      }
      const pause = pacer.pause();
      if (pause) await pause;
    }
    const pause = pacer.pause();
    if (pause) await pause;
  }
  files.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1));
  return {
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    diffBytes: files.reduce((n, f) => n + (f.noise ? 0 : f.bytes), 0),
    largest: files.slice(0, 5).map(({ path, bytes }) => ({ path, bytes })),
    entries,
    unreadable,
  };
}

/** Bytes of a snapshot's files. */
export function snapshotBytes(snapshot: Snapshot): number {
  let bytes = 0;
  for (const file of snapshot.files) bytes += file.content.length;
  return bytes;
}

/**
 * When the workspace under `dir` has grown more than `caps.maxGrowth` bytes over `original`, a
 * message for the model naming the biggest files; otherwise null. `caps.maxDiffBytes`: the final
 * diff's cap, for the message to say whether the diff is still graded.
 */
export async function growthProblem(
  dir: string,
  original: Snapshot,
  caps: { maxGrowth: number; maxDiffBytes: number },
): Promise<string | null> {
  let usage = await measureTree(dir);
  if (usage.unreadable.length > 0) {
    // Closed up by the agent's own code (`chmod 0`, without root): opened again, as the final
    // diff and the removal do. What stays unreadable is nested too deep to name.
    await reopenTree(dir);
    usage = await measureTree(dir);
  }
  if (usage.unreadable.length > 0) {
    const top = usage.unreadable[0].split("/")[0];
    return `The workspace has files or folders that cannot be read by name (nested too deep, or named in bytes that are not UTF-8: ${
      usage.unreadable.slice(0, 3).map((p) =>
        JSON.stringify(p.slice(0, 120) + (p.length > 120 ? "..." : ""))
      ).join(", ")
    }); remove them (e.g. run_command ["python3", "-c", "import shutil; shutil.rmtree('${top}')"]), or the final diff will not be graded`;
  }
  const maxEntries = original.files.length + original.dirs.length + MAX_GROWTH_ENTRIES;
  if (usage.entries > maxEntries) {
    // Empty files and folders weigh nothing in the final diff: it is still graded, so the message
    // does not say otherwise.
    return `The workspace holds ${usage.entries} files and folders, over its limit of ${maxEntries}; delete what the change does not need (e.g. run_command ["python3", "-c", "import shutil; shutil.rmtree('FOLDER')"])`;
  }
  const before = snapshotBytes(original);
  const limit = before + caps.maxGrowth;
  if (usage.bytes <= limit) return null;
  return `The workspace holds ${formatBytes(usage.bytes)}, over its ${
    formatBytes(limit)
  } limit; biggest files: ${
    listFiles(usage.largest)
  }; delete what the change does not need (e.g. run_command ["python3", "-c", "import os; os.remove('FILE')"])${
    // The files the diff counts grew by more than its cap: their changes, counted on both sides,
    // are more still. (Growth in noise folders, which the diff leaves out, is no reason.)
    usage.diffBytes - before > caps.maxDiffBytes ? ", or the final diff will not be graded" : ""}`;
}

/** Why a diff was not built: its changes exceed the cap. */
export interface DiffTooLarge {
  /** Bytes of the changed files (both sides), as counted against the cap. */
  bytes: number;
  limit: number;
  /** The biggest changed files, largest first (at most 5). */
  largest: { path: string; bytes: number }[];
}

/** Why a final diff over the cap is not graded, for the model and the trajectory. */
export function diffTooLargeMessage(tooLarge: DiffTooLarge): string {
  return `The changes hold ${formatBytes(tooLarge.bytes)}, over the ${
    formatBytes(tooLarge.limit)
  } limit of a final diff; biggest changed files: ${
    listFiles(tooLarge.largest)
  }; delete or shrink what the change does not need`;
}

function listFiles(files: { path: string; bytes: number }[]): string {
  return files.map((f) => `"${f.path}" (${formatBytes(f.bytes)})`).join(", ");
}

/** Bytes for people: `512 B`, `1.5 KiB`, `60.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}
