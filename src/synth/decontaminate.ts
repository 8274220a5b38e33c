/**
 * Keeping curated tasks' solutions out of generated tasks: a generated repository that already
 * holds a curated task's reference fix would teach (and leak) that solution to a policy trained on
 * it. A fix counts as present when, for some file it changes, every hunk is in the repository's
 * version of that file: the new side of each hunk that adds lines appears in it, and the old side
 * of each hunk that only removes lines does not.
 */
import { readFileSync } from "node:fs";
import { type FilePatch, parsePatch } from "../patch/parse.ts";
import type { Task } from "../task/spec.ts";

/** A curated task's reference fix, parsed. */
export interface ReferenceFix {
  task: string;
  files: FilePatch[];
}

/** The reference fixes of `tasks` (tasks without a readable, parsable patch are skipped). */
export function referenceFixes(tasks: Task[]): ReferenceFix[] {
  const fixes: ReferenceFix[] = [];
  for (const task of tasks) {
    if (task.solutionPath === null) continue;
    let text: string;
    try {
      text = readFileSync(task.solutionPath, "utf8");
    } catch {
      continue;
    }
    const parsed = parsePatch(text);
    if (parsed.ok) fixes.push({ task: task.spec.id, files: parsed.files });
  }
  return fixes;
}

/** Ids of the tasks whose reference fix `files` (repository path to text) already contains. */
export function containedFixes(files: Map<string, string>, fixes: ReferenceFix[]): string[] {
  return fixes.filter((fix) => fix.files.some((file) => fileFixed(files, file))).map((f) => f.task);
}

function fileFixed(files: Map<string, string>, patch: FilePatch): boolean {
  if (patch.to === null || patch.binary) return false;
  const text = files.get(patch.to);
  if (text === undefined) return false;
  const normalized = text.replaceAll("\r\n", "\n");
  const hunks = patch.hunks.filter((h) => h.lines.some((l) => l.op !== " "));
  if (hunks.length === 0) return false;
  return hunks.every((hunk) => {
    const adds = hunk.lines.some((l) => l.op === "+");
    const side = (op: "+" | "-") =>
      hunk.lines.filter((l) => l.op === " " || l.op === op).map((l) => l.text).join("\n");
    return adds ? normalized.includes(side("+")) : !normalized.includes(side("-"));
  });
}
