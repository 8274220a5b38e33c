/** Facts about parsed file patches: the paths they name and the lines they change. */
import { posix } from "node:path";
import { type FilePatch, parsePatch } from "./parse.ts";

/**
 * Every path the file patches name, either side of a rename or a binary section included;
 * normalized (`./tests/x` is `tests/x`), sorted, each once.
 */
export function patchPaths(files: readonly FilePatch[]): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    for (const path of [file.from, file.to]) if (path !== null) paths.add(posix.normalize(path));
  }
  return [...paths].sort();
}

/** The paths of binary sections, which text patches cannot carry: the new name, or the old one. */
export function binaryPaths(files: readonly FilePatch[]): string[] {
  return files.filter((file) => file.binary).map((file) => (file.to ?? file.from)!);
}

/** Lines a patch adds or removes (headers not counted); text that is not a patch changes none. */
export function changedLines(patch: string | readonly FilePatch[]): number {
  const files = typeof patch === "string" ? parsedOrEmpty(patch) : patch;
  let count = 0;
  for (const file of files) {
    for (const hunk of file.hunks) count += hunk.lines.filter((line) => line.op !== " ").length;
  }
  return count;
}

function parsedOrEmpty(text: string): readonly FilePatch[] {
  const parsed = parsePatch(text);
  return parsed.ok ? parsed.files : [];
}
