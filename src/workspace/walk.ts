/** Sorted, noise-free traversal of a tree: the listing and search tools and `readTree` share it. */
import { changedName } from "./remove.ts";
import { isNoiseFile, NOISE_DIRS } from "./snapshot.ts";

/**
 * One entry met while walking; `stopped` comes last, once, when the walk read its `maxEntries`
 * folder entries and did not read on.
 */
export interface WalkEntry {
  /** Path relative to the walk root's workspace, `/`-separated (empty for `stopped`). */
  path: string;
  depth: number;
  kind: "file" | "dir" | "symlink" | "stopped";
}

/** How far {@linkcode walk} goes. */
export interface WalkOptions {
  /** Stop descending below this depth (1 = direct children); default no limit. */
  maxDepth?: number;
  /**
   * Folder entries read at most (noise included), default no limit: the agent's code can leave
   * millions of files, and a walk on the orchestrator's thread must not read them all.
   */
  maxEntries?: number;
}

/** A folder still to list: its absolute path, its `path` prefix and its depth. */
interface Pending {
  dir: string;
  prefix: string;
  depth: number;
}

/**
 * Entries under `dir` (absolute) in sorted depth-first order, paths prefixed with `prefix`.
 * Symlinks are reported, never followed. A walk that reaches `maxEntries` yields what it read (a
 * folder read in part shows that part, sorted) and then one `stopped` entry. A name Deno gives back
 * changed (not UTF-8) is left out, as the final diff leaves it out: it names no entry, or the real
 * U+FFFD name beside it, and a chain of such pairs would double the walk at every level.
 */
export function* walk(
  dir: string,
  prefix = "",
  options: WalkOptions = {},
): Generator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Infinity;
  let left = options.maxEntries ?? Infinity;
  let stopped = false;
  // An explicit stack instead of nested generators: a search walks every file of the workspace,
  // and `yield*` through each level costs more than listing the folder.
  const stack: (Pending | WalkEntry)[] = [{ dir, prefix, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ("kind" in item) {
      yield item;
      continue;
    }
    if (left <= 0) {
      stopped = true;
      continue;
    }
    const entries: Deno.DirEntry[] = [];
    try {
      // Read lazily: a folder of a million entries costs only what the budget allows.
      for (const entry of Deno.readDirSync(item.dir)) {
        if (left <= 0) {
          stopped = true;
          break;
        }
        entries.push(entry);
        left--;
      }
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
    // Sorted in reverse, so popping yields names in order, each folder's contents right after it.
    for (const entry of entries) {
      if (changedName(entry.name)) continue;
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
  if (stopped) yield { path: "", depth: 0, kind: "stopped" };
}
