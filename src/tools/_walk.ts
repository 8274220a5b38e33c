/** Sorted, noise-free traversal of a workspace, shared by the listing and search tools. */
import { readdirSync } from "node:fs";
import { isNoiseFile, NOISE_DIRS } from "../workspace/snapshot.ts";

/** One entry met while walking. */
export interface WalkEntry {
  /** Path relative to the walk root's workspace, `/`-separated. */
  path: string;
  depth: number;
  kind: "file" | "dir" | "symlink";
}

/**
 * Entries under `dir` (absolute) in sorted depth-first order, paths prefixed with `prefix`.
 * Symlinks are reported, never followed. Stops descending below `maxDepth` (1 = direct children).
 */
export function* walk(
  dir: string,
  prefix = "",
  maxDepth = Infinity,
  depth = 1,
): Generator<WalkEntry> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (NOISE_DIRS.has(entry.name)) continue;
      yield { path, depth, kind: "dir" };
      if (depth < maxDepth) yield* walk(`${dir}/${entry.name}`, path, maxDepth, depth + 1);
    } else if (entry.isSymbolicLink()) {
      yield { path, depth, kind: "symlink" };
    } else if (entry.isFile() && !isNoiseFile(entry.name)) {
      yield { path, depth, kind: "file" };
    }
  }
}
