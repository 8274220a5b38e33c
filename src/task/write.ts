/**
 * Writing a new task folder safely, shared by the importers and `synth`: the task is written to a
 * staging folder next to its target, loaded back with `loadTask` (so every written task passes the
 * loader's checks), and only then moved into place. A task that fails leaves nothing behind, and
 * an existing folder is never overwritten.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TaskError } from "../errors.ts";
import { displayPath, loadTask } from "./load.ts";
import type { TaskSpec } from "./spec.ts";

/** A task before it is on disk. */
export interface NewTask {
  spec: TaskSpec;
  /** The starting repository: path relative to `repo/` to content. */
  repo: Record<string, string | Uint8Array>;
  /** Grading-only files: path relative to the repository root to content. */
  hidden?: Record<string, string | Uint8Array>;
  /** The reference patch, or null. */
  patch: string | null;
  /** Other files of the task folder by name, e.g. the environment's `env.lock`. */
  extra?: Record<string, string>;
}

/** The folder written, or every reason the task was refused. */
export type WriteResult = { ok: true; dir: string } | { ok: false; problems: string[] };

/** Write `task` to `outDir/<id>/`, loaded back before it is moved into place. */
export function writeNewTask(outDir: string, task: NewTask): WriteResult {
  mkdirSync(outDir, { recursive: true });
  const target = join(outDir, task.spec.id);
  if (existsSync(target)) {
    return {
      ok: false,
      problems: [
        `task folder "${
          displayPath(target)
        }" already exists and is not overwritten; remove it or write into another --out`,
      ],
    };
  }
  const staging = mkdtempSync(join(outDir, ".staging-"));
  try {
    const dir = join(staging, task.spec.id);
    const write = (path: string, content: string | Uint8Array) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    };
    mkdirSync(join(dir, "repo"), { recursive: true });
    for (const [path, content] of Object.entries(task.repo)) {
      write(join(dir, "repo", path), content);
    }
    for (const [path, content] of Object.entries(task.hidden ?? {})) {
      write(join(dir, "hidden", path), content);
    }
    if (task.patch !== null) write(join(dir, task.spec.solution ?? "solution.patch"), task.patch);
    for (const [name, content] of Object.entries(task.extra ?? {})) write(join(dir, name), content);
    write(join(dir, "task.json"), `${JSON.stringify(task.spec, null, 2)}\n`);
    try {
      loadTask(dir);
    } catch (error) {
      if (!(error instanceof TaskError)) throw error;
      // The staging path in each problem means nothing to the reader; keep the field and reason.
      return { ok: false, problems: error.problems.map((p) => p.replace(/^.*?task\.json: /, "")) };
    }
    renameSync(dir, target);
    return { ok: true, dir: target };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
