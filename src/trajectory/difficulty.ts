/**
 * Difficulty from evidence: each task's solve rate in a rollout (pass@1 = resolved samples over
 * graded samples, and the unbiased pass@k), labelled by thresholds rather than by the kind of task.
 * Samples that ended in `policy_error` or `environment_error`, or were not graded, say nothing
 * about the task and are left out.
 */
import { passAtK } from "./summary.ts";
import type { TrajectoryRecord } from "./record.ts";

/** A task's label from its solve rate: `unsolved` when no sample resolved it. */
export type EvidenceLabel = "easy" | "medium" | "hard" | "unsolved";

/** pass@1 at or above which a task is easy, and below which it is hard (when solved at all). */
export const EASY_AT = 0.75;
export const HARD_BELOW = 0.25;

/** One task's evidence. */
export interface TaskDifficulty {
  task_id: string;
  /** Graded samples. */
  samples: number;
  resolved: number;
  pass_at_1: number;
  /** The k of `pass_at_k`: the k asked for, or fewer when the task has fewer samples. */
  k: number;
  pass_at_k: number;
  label: EvidenceLabel;
  /** The difficulty the task declared, for comparison. */
  declared: string;
}

/** Per-task difficulty from `records`, sorted by pass@1 (hardest first), then id. */
export function taskDifficulty(records: TrajectoryRecord[], k: number): TaskDifficulty[] {
  const byTask = new Map<string, TrajectoryRecord[]>();
  for (const r of records) {
    if (
      r.reward === null || r.stop_reason === "policy_error" ||
      r.stop_reason === "environment_error"
    ) continue;
    byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r]);
  }
  const out: TaskDifficulty[] = [];
  for (const [id, samples] of byTask) {
    const resolved = samples.filter((r) => r.reward?.resolved).length;
    const p1 = resolved / samples.length;
    out.push({
      task_id: id,
      samples: samples.length,
      resolved,
      pass_at_1: round(p1),
      k: Math.min(k, samples.length),
      pass_at_k: round(passAtK(samples.length, resolved, k)),
      label: labelOf(resolved, p1),
      declared: samples[0].task.difficulty,
    });
  }
  return out.sort((a, b) => a.pass_at_1 - b.pass_at_1 || a.task_id.localeCompare(b.task_id));
}

/** The label of a task resolved `resolved` times with solve rate `p1`. */
export function labelOf(resolved: number, p1: number): EvidenceLabel {
  if (resolved === 0) return "unsolved";
  if (p1 >= EASY_AT) return "easy";
  if (p1 < HARD_BELOW) return "hard";
  return "medium";
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
