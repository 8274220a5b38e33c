/**
 * How big a workspace may get: the final diff's cap (see `diffTree`) and a cap on how much the
 * workspace may grow over the task's repository, measured by stat only, never by reading files.
 */
import { type DiffTooLarge } from "./diff.ts";
import type { Snapshot } from "./snapshot.ts";

/** Default cap on how many bytes a workspace may grow over its repository (all files counted). */
export const DEFAULT_MAX_GROWTH_BYTES = 32 * 1024 * 1024;

/** A workspace's size on disk. */
export interface WorkspaceUsage {
  /** Bytes of every regular file, noise folders included. */
  bytes: number;
  /** The biggest files, largest first (at most 5). */
  largest: { path: string; bytes: number }[];
}

/** Files stat'ed at once. */
const BATCH = 64;

/** Measure the regular files under `dir` with asynchronous stat calls (symlinks not followed). */
export async function measureTree(dir: string): Promise<WorkspaceUsage> {
  const files: { path: string; bytes: number }[] = [];
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(rel ? `${dir}/${rel}` : dir)) {
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory) pending.push(path);
        else if (entry.isFile) names.push(path);
      }
    } catch {
      continue; // Removed meanwhile.
    }
    for (let i = 0; i < names.length; i += BATCH) {
      const batch = names.slice(i, i + BATCH);
      const stats = await Promise.all(
        batch.map((p) => Deno.lstat(`${dir}/${p}`).catch(() => null)),
      );
      batch.forEach((path, j) => stats[j] && files.push({ path, bytes: stats[j].size }));
    }
  }
  files.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1));
  return { bytes: files.reduce((n, f) => n + f.bytes, 0), largest: files.slice(0, 5) };
}

/** Bytes of a snapshot's files. */
export function snapshotBytes(snapshot: Snapshot): number {
  let bytes = 0;
  for (const file of snapshot.files) bytes += file.content.length;
  return bytes;
}

/**
 * When the workspace under `dir` has grown more than `maxGrowth` bytes over `original`, a message
 * for the model naming the biggest files; otherwise null.
 */
export async function growthProblem(
  dir: string,
  original: Snapshot,
  maxGrowth: number,
): Promise<string | null> {
  const usage = await measureTree(dir);
  const limit = snapshotBytes(original) + maxGrowth;
  if (usage.bytes <= limit) return null;
  return `The workspace holds ${formatBytes(usage.bytes)}, over its ${
    formatBytes(limit)
  } limit; biggest files: ${
    listFiles(usage.largest)
  }; delete what the change does not need (e.g. run_command ["python3", "-c", "import os; os.remove('FILE')"]), or the final diff will not be graded`;
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
