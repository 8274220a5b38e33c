/**
 * The files of a tree as they are now: contents (`readTree`) or sizes by stat only (`treeSizes`),
 * noise folders and symlinks skipped.
 */
import { readFileSync } from "node:fs";
import { Pacer } from "./pacer.ts";
import { changedName } from "./remove.ts";
import { isNoiseFile, NOISE_DIRS } from "./snapshot.ts";
import { walk } from "./walk.ts";

/** Read the current regular files under `root` (noise folders and symlinks skipped). */
export function readTree(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (const entry of walk(root)) {
    if (entry.kind === "file") files.set(entry.path, readFileSync(`${root}/${entry.path}`));
  }
  return files;
}

/**
 * Sizes of the regular files under `root` (noise folders and symlinks skipped), by stat only,
 * synchronously in slices (see {@linkcode Pacer}).
 */
export async function treeSizes(root: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pending = [""];
  const pacer = new Pacer();
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const files: string[] = [];
    let entries: Iterable<Deno.DirEntry>;
    try {
      entries = Deno.readDirSync(rel ? `${root}/${rel}` : root);
    } catch (error) {
      // A folder that cannot be named (not UTF-8, past PATH_MAX) is left out, as a patch could
      // not carry it; anything else (the root itself, a folder closed to its owner) is thrown.
      if (rel !== "" && namedOut(error)) continue;
      throw error;
    }
    for (const entry of entries) {
      // What Deno puts for bytes that are not UTF-8: left out with what it holds (see above).
      if (changedName(entry.name)) continue;
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!NOISE_DIRS.has(entry.name)) pending.push(path);
      } else if (entry.isFile && !isNoiseFile(entry.name)) {
        files.push(path);
      }
    }
    for (const path of files) {
      let stat: Deno.FileInfo | null = null;
      try {
        stat = Deno.lstatSync(`${root}/${path}`);
      } catch {
        // Removed meanwhile.
      }
      if (stat?.isFile) sizes.set(path, stat.size);
      const pause = pacer.pause();
      if (pause) await pause;
    }
    const pause = pacer.pause();
    if (pause) await pause;
  }
  return sizes;
}

/** A folder listed by its parent that cannot be reached by its name (see `unreadableTree`). */
function namedOut(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error instanceof Error && /\(os error 36\)/.test(error.message));
}

/**
 * Whether `error`, met walking or reading a tree the sandbox's code wrote, comes from the tree's
 * own shape rather than from the machine: a name Deno cannot give back as it is (not UTF-8: the
 * lossy name is then not found), a path past `PATH_MAX`, a folder closed to its owner, a loop or a
 * file where a folder was listed. Such a tree is the agent's doing; an I/O error is not.
 */
export function unreadableTree(error: unknown): boolean {
  return namedOut(error) || error instanceof Deno.errors.PermissionDenied ||
    error instanceof Deno.errors.FilesystemLoop || error instanceof Deno.errors.NotADirectory ||
    error instanceof Deno.errors.IsADirectory;
}
