/** Sorted, noise-free traversal of a tree: the listing and search tools and `readTree` share it. */
import { isNoiseFile, NOISE_DIRS } from "./snapshot.ts";

/** One entry met while walking. */
export interface WalkEntry {
  /** Path relative to the walk root's workspace, `/`-separated. */
  path: string;
  depth: number;
  kind: "file" | "dir" | "symlink";
}

/** A folder still to list: its absolute path, its `path` prefix and its depth. */
interface Pending {
  dir: string;
  prefix: string;
  depth: number;
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
  // An explicit stack instead of nested generators: a search walks every file of the workspace,
  // and `yield*` through each level costs more than listing the folder.
  const stack: (Pending | WalkEntry)[] = [{ dir, prefix, depth }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ("kind" in item) {
      yield item;
      continue;
    }
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(item.dir)];
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    // Sorted in reverse, so popping yields names in order, each folder's contents right after it.
    for (const entry of entries) {
      const path = item.prefix ? `${item.prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (NOISE_DIRS.has(entry.name)) continue;
        if (item.depth < maxDepth) {
          stack.push({ dir: `${item.dir}/${entry.name}`, prefix: path, depth: item.depth + 1 });
        }
        stack.push({ path, depth: item.depth, kind: "dir" });
      } else if (entry.isSymlink) {
        stack.push({ path, depth: item.depth, kind: "symlink" });
      } else if (entry.isFile && !isNoiseFile(entry.name)) {
        stack.push({ path, depth: item.depth, kind: "file" });
      }
    }
  }
}
