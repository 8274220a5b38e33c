/**
 * The final state of a workspace as a git-style unified diff against the original snapshot:
 * modified, created and deleted files, with binary files named rather than inlined.
 */
import { readdirSync, readFileSync } from "node:fs";
import { structuredPatch } from "diff";
import { isNoiseFile, NOISE_DIRS, type Snapshot } from "./snapshot.ts";

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
}

/** Read the current regular files under `root` (noise folders and symlinks skipped). */
export function readTree(root: string): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const walk = (rel: string) => {
    for (const entry of readdirSync(rel ? `${root}/${rel}` : root, { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!NOISE_DIRS.has(entry.name)) walk(path);
      } else if (entry.isFile() && !isNoiseFile(entry.name)) {
        files.set(path, readFileSync(`${root}/${path}`));
      }
    }
  };
  walk("");
  return files;
}

/** Diff the tree under `root` against `original`. Paths are sorted so the patch is deterministic. */
export function diffTree(original: Snapshot, root: string): WorkspaceDiff {
  const current = readTree(root);
  const paths = [...new Set([...original.byPath.keys(), ...current.keys()])].sort();
  const result: WorkspaceDiff = { patch: "", created: [], modified: [], deleted: [], binary: [] };
  const parts: string[] = [];
  for (const path of paths) {
    const before = original.byPath.get(path)?.content;
    const after = current.get(path);
    if (before && after && bytesEqual(before, after)) continue;
    const kind = !before ? "created" : !after ? "deleted" : "modified";
    result[kind].push(path);
    parts.push(fileDiff(path, before, after, result));
  }
  result.patch = parts.join("");
  return result;
}

/** Git-style diff of one file; `undefined` on a side means the file is absent there. */
export function fileDiff(
  path: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
  stat?: DiffStat,
): string {
  let header = `diff --git a/${path} b/${path}\n`;
  if (!before) header += "new file mode 100644\n";
  if (!after) header += "deleted file mode 100644\n";
  const oldText = before ? decodeText(before) : "";
  const newText = after ? decodeText(after) : "";
  if (oldText === null || newText === null) {
    stat?.binary.push(path);
    return `${header}Binary files ${before ? `a/${path}` : "/dev/null"} and ${
      after ? `b/${path}` : "/dev/null"
    } differ\n`;
  }
  const patch = structuredPatch(path, path, oldText, newText, "", "", { context: 3 });
  let body = `--- ${before ? `a/${path}` : "/dev/null"}\n+++ ${
    after ? `b/${path}` : "/dev/null"
  }\n`;
  for (const hunk of patch.hunks) {
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
    body += `@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@\n`;
    for (const line of hunk.lines) body += `${line}\n`;
  }
  return header + (patch.hunks.length > 0 ? body : "");
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Decode UTF-8 text, or null for binary content (a NUL byte or invalid UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
