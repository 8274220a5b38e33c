/** Reading a run folder (or a trajectories file) for `show` and `report`. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { UsageError } from "../errors.ts";
import { parseTrajectories, type TrajectoryRecord } from "../trajectory/record.ts";
import { readInput } from "./_args.ts";

/** A run as read from disk. */
export interface RunFolder {
  /** The folder holding the trajectories. */
  dir: string;
  file: string;
  records: TrajectoryRecord[];
  /** `summary.json` when present and readable. */
  summary: Record<string, unknown> | null;
}

/**
 * Read `path`, a run folder or a `trajectories.jsonl`. Bad lines are reported on stderr with
 * their line numbers and skipped; no valid record at all is a {@linkcode UsageError}.
 */
export function readRunFolder(command: string, path: string): RunFolder {
  if (!existsSync(path)) {
    throw new UsageError(`${command}: "${path}" not found; give a run folder such as runs/run-...`);
  }
  const isDir = statSync(path).isDirectory();
  const file = isDir ? join(path, "trajectories.jsonl") : path;
  const dir = isDir ? path : dirname(path);
  if (isDir && !existsSync(file)) {
    throw new UsageError(
      `${command}: "${path}" has no trajectories.jsonl; give the folder a rollout wrote`,
    );
  }
  const parsed = parseTrajectories(readInput(command, file));
  if (parsed.problems.length > 0) {
    console.error(
      `Skipped ${parsed.badLines.length} bad lines of "${file}" (lines ${
        parsed.badLines.join(", ")
      }): ${parsed.problems[0]}`,
    );
  }
  if (parsed.records.length === 0 && parsed.problems.length > 0) {
    throw new UsageError(`${command}: "${file}" holds no valid trajectory record`);
  }
  let summary: Record<string, unknown> | null = null;
  const summaryPath = join(dir, "summary.json");
  if (basename(file) === "trajectories.jsonl" && existsSync(summaryPath)) {
    try {
      summary = JSON.parse(readFileSync(summaryPath, "utf8"));
    } catch {
      summary = null;
    }
  }
  return { dir, file, records: parsed.records, summary };
}
