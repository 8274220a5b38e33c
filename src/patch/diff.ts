/**
 * The final state of a workspace as a git-style unified diff against the original snapshot:
 * modified, created and deleted files, with binary files named rather than inlined.
 */
import type { DiffTooLarge } from "../workspace/limits.ts";
import type { Snapshot } from "../workspace/snapshot.ts";
import { Pacer } from "../workspace/pacer.ts";
import { treeSizes } from "../workspace/tree.ts";
import { fileDiff } from "./write.ts";

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
  /**
   * Set when the tree could not be read by name (see `unreadableTree`): why, for the episode's
   * error; the patch is then empty and the lists too.
   */
  unreadable?: string;
}

/** Default cap on a final diff: the changed files' bytes, before and after. */
export const DEFAULT_MAX_DIFF_BYTES = 1024 * 1024;

/** Options of {@linkcode diffTree}. */
export interface DiffOptions {
  /** Cap on the changed files' bytes (default {@linkcode DEFAULT_MAX_DIFF_BYTES}). */
  maxBytes?: number;
}

/**
 * Diff the tree under `root` against `original`. Paths are sorted so the patch is deterministic.
 * Sizes are checked (stat) before any file is read, and reads are synchronous in slices that give
 * the event loop back (see `Pacer`): when the changed files hold more than `maxBytes` (both sides
 * counted), nothing is read and the result has an empty patch and
 * {@linkcode WorkspaceDiff.tooLarge} set, naming the biggest files.
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
  const pacer = new Pacer();
  for (const path of paths) {
    if (!sizes.has(path)) continue;
    try {
      current.set(path, Deno.readFileSync(`${root}/${path}`));
    } catch {
      // Removed meanwhile: it counts as deleted.
    }
    const pause = pacer.pause();
    if (pause) await pause;
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
    const part = fileDiff(path, before, after, result);
    // The same text (only a byte-order mark came or went): no section, since one without a hunk
    // is not a patch and would keep every other change from being applied.
    if (part === "") continue;
    result[kind].push(path);
    parts.push(part);
  }
  result.patch = parts.join("");
  return result;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
