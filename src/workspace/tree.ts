/**
 * The files of a tree as they are now: contents (`readTree`) or sizes by stat only (`treeSizes`),
 * noise folders and symlinks skipped.
 */
import { readFileSync } from "node:fs";
import { isNoiseFile, NOISE_DIRS } from "./snapshot.ts";
import { walk } from "./walk.ts";

/** Files read or stat'ed at once. */
const BATCH = 64;

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
    for (let i = 0; i < files.length; i += BATCH) {
      const batch = files.slice(i, i + BATCH);
      const stats = await Promise.all(
        batch.map((p) => Deno.lstat(`${root}/${p}`).catch(() => null)),
      );
      batch.forEach((p, j) => stats[j]?.isFile && sizes.set(p, stats[j].size));
    }
  }
  return sizes;
}
