/**
 * The final state of a workspace as a git-style unified diff against the original snapshot:
 * modified, created and deleted files, with binary files named rather than inlined.
 */
import { readFileSync } from "node:fs";
import { fileDiff } from "../patch/write.ts";
import { isNoiseFile, NOISE_DIRS, type Snapshot } from "./snapshot.ts";
import { walk } from "./walk.ts";

/** Files changed by a diff, by kind. */
export interface DiffStat {
  created: string[];
  modified: string[];
  deleted: string[];
  binary: string[];
}

/** A workspace diff: the patch text plus which files it touches. */
export interface WorkspaceDiff extends DiffStat {
  patch: string;
  /** Set when the changes exceed the cap; the patch is then empty and the lists too. */
  tooLarge?: DiffTooLarge;
}

/** Read the current regular files under `root` (noise folders and symlinks skipped). */
export function readTree(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of walk(root)) {
    if (entry.kind === "file") files.set(entry.path, readFileSync(`${root}/${entry.path}`));
  }
  return files;
}

/** Default cap on a final diff: the changed files' bytes, before and after. */
export const DEFAULT_MAX_DIFF_BYTES = 1024 * 1024;

/** Why a diff was not built: its changes exceed the cap. */
export interface DiffTooLarge {
  /** Bytes of the changed files (both sides), as counted against the cap. */
  bytes: number;
  limit: number;
  /** The biggest changed files, largest first (at most 5). */
  largest: { path: string; bytes: number }[];
}

/** Options of {@linkcode diffTree}. */
export interface DiffOptions {
  /** Cap on the changed files' bytes (default {@linkcode DEFAULT_MAX_DIFF_BYTES}). */
  maxBytes?: number;
}

/** Files read at once while diffing. */
const READ_BATCH = 64;

/**
 * Diff the tree under `root` against `original`. Paths are sorted so the patch is deterministic.
 * Sizes are checked (stat) before any file is read, and reads are asynchronous: when the changed
 * files hold more than `maxBytes` (both sides counted), nothing is read and the result has an
 * empty patch and {@linkcode WorkspaceDiff.tooLarge} set, naming the biggest files.
 */
export async function diffTree(
  original: Snapshot,
  root: string,
  options: DiffOptions = {},
): Promise<WorkspaceDiff> {
  const limit = options.maxBytes ?? DEFAULT_MAX_DIFF_BYTES;
  const sizes = await treeSizes(root);
  const paths = [...new Set([...original.byPath.keys(), ...sizes.keys()])].sort();
  // Changed for sure (created, deleted, size changed), with their bytes; or maybe (same size).
  const counted: { path: string; bytes: number }[] = [];
  const sameSize: string[] = [];
  let bytes = 0;
  for (const path of paths) {
    const before = original.byPath.get(path)?.content.length;
    const after = sizes.get(path);
    if (before === after) {
      sameSize.push(path);
      continue;
    }
    const size = (before ?? 0) + (after ?? 0);
    counted.push({ path, bytes: size });
    bytes += size;
  }
  const tooLarge = (): WorkspaceDiff => ({
    patch: "",
    created: [],
    modified: [],
    deleted: [],
    binary: [],
    tooLarge: {
      bytes,
      limit,
      largest: counted.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1)).slice(0, 5),
    },
  });
  if (bytes > limit) return tooLarge();
  const current = new Map<string, Uint8Array>();
  const toRead = paths.filter((p) => sizes.has(p));
  for (let i = 0; i < toRead.length; i += READ_BATCH) {
    const batch = toRead.slice(i, i + READ_BATCH);
    const contents = await Promise.all(
      batch.map((p) => Deno.readFile(`${root}/${p}`).catch(() => null)),
    );
    batch.forEach((p, j) => contents[j] && current.set(p, contents[j]));
  }
  for (const path of sameSize) {
    const before = original.byPath.get(path)?.content;
    const after = current.get(path);
    if (before && after && !bytesEqual(before, after)) {
      counted.push({ path, bytes: before.length + after.length });
      bytes += before.length + after.length;
    }
  }
  if (bytes > limit) return tooLarge();
  const result: WorkspaceDiff = { patch: "", created: [], modified: [], deleted: [], binary: [] };
  const parts: string[] = [];
  for (const path of paths) {
    const before = original.byPath.get(path)?.content;
    const after = current.get(path);
    if (!before && !after) continue;
    if (before && after && bytesEqual(before, after)) continue;
    const kind = !before ? "created" : !after ? "deleted" : "modified";
    result[kind].push(path);
    parts.push(fileDiff(path, before, after, result));
  }
  result.patch = parts.join("");
  return result;
}

/**
 * Sizes of the regular files under `root` (noise folders and symlinks skipped), by stat only,
 * with asynchronous calls.
 */
export async function treeSizes(root: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const files: string[] = [];
    for await (const entry of Deno.readDir(rel ? `${root}/${rel}` : root)) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!NOISE_DIRS.has(entry.name)) pending.push(path);
      } else if (entry.isFile && !isNoiseFile(entry.name)) {
        files.push(path);
      }
    }
    for (let i = 0; i < files.length; i += READ_BATCH) {
      const batch = files.slice(i, i + READ_BATCH);
      const stats = await Promise.all(
        batch.map((p) => Deno.lstat(`${root}/${p}`).catch(() => null)),
      );
      batch.forEach((p, j) => stats[j]?.isFile && sizes.set(p, stats[j].size));
    }
  }
  return sizes;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
