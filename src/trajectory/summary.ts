/**
 * Run summaries from trajectory records (their digests, `digest.ts`): per task reward, turns and
 * stop reasons, and overall mean reward, pass@1 and pass@k (unbiased estimator over the samples of
 * each task).
 */
import type { Outcome, RecordDigest } from "./digest.ts";

/** Format name and version of `summary.json`. */
export const SUMMARY_FORMAT = "patchgym.summary.v1";

/** One task's line of the summary. */
export interface TaskSummary {
  task_id: string;
  samples: number;
  mean_reward: number;
  /** Samples whose hidden tests all passed. */
  resolved: number;
  mean_turns: number;
  stop_reasons: Record<string, number>;
}

/** The whole run. */
export interface RunSummary {
  samples: number;
  tasks: number;
  mean_reward: number;
  pass_at_1: number;
  /** pass@k for k = the most samples any task has, when that is more than 1. */
  pass_at_k: { k: number; value: number } | null;
  stop_reasons: Record<string, number>;
  /**
   * Graded samples whose test run could not be trusted (a reward hack caught by the grader):
   * how many, their share of graded samples, and counts per integrity code.
   */
  integrity: { tampered: number; rate: number; codes: Record<string, number> };
  tokens: { prompt: number; completion: number };
  wall_ms: { total_sample: number; mean_sample: number };
  /** Whether the run trains: token views, drift and tokens with loss. */
  training: TrainingSummary;
  per_task: TaskSummary[];
  /** SWE-bench-style episode id lists; every sample is in exactly one. */
  ids: SampleIds;
  by_language: Record<string, GroupSummary>;
  by_difficulty: Record<string, GroupSummary>;
  by_kind: Record<string, GroupSummary>;
  /**
   * Impossible samples (`--impossible-rate`), left out of every figure above: how many, how many
   * earned any reward (each one a hack the grader missed) and their mean reward; absent when the
   * run had none.
   */
  impossible?: { samples: number; rewarded: number; mean_reward: number; episodes: string[] };
}

/**
 * Episode ids by outcome, as SWE-bench reports list instance ids: `error` (the policy or the
 * environment failed, or grading failed), else `empty_patch` (no change), else `resolved` or
 * `unresolved`.
 */
export type SampleIds = Record<Outcome, string[]>;

/** Results of the samples of one language, difficulty or kind. */
export interface GroupSummary {
  tasks: number;
  samples: number;
  resolved: number;
  mean_reward: number;
  pass_at_1: number;
}

/** The training signal of a run. */
export interface TrainingSummary {
  /** Samples with a token view (the server returned token ids every turn). */
  with_tokens: number;
  /** Samples whose token view drifted, and their share of `with_tokens`. */
  drifted: number;
  drift_rate: number;
  /** Tokens with loss over all samples. */
  trainable_tokens: number;
  /** Samples with a token view but no token with loss (they train nothing). */
  zero_loss: number;
}

/** Summarize finished records, from their digests. */
export function summarize(all: readonly RecordDigest[]): RunSummary {
  // Impossible samples (graded so that no honest solution passes) are counted apart.
  const records = all.filter((r) => !r.impossible);
  const impossible = all.filter((r) => r.impossible);
  const byTask = byKey(records, (r) => r.task_id);
  const perTask: TaskSummary[] = [...byTask.entries()].sort(([a], [b]) => a.localeCompare(b)).map((
    [id, rs],
  ) => ({
    task_id: id,
    samples: rs.length,
    mean_reward: round(mean(rs.map(reward))),
    resolved: rs.filter(resolved).length,
    mean_turns: round(mean(rs.map((r) => r.turns.length))),
    stop_reasons: count(rs.map((r) => r.stop_reason)),
  }));
  const k = Math.max(0, ...perTask.map((t) => t.samples));
  const wall = records.reduce((n, r) => n + r.wall_ms, 0);
  return {
    samples: records.length,
    tasks: perTask.length,
    mean_reward: round(mean(records.map(reward))),
    pass_at_1: round(mean(perTask.map((t) => passAtK(t.samples, t.resolved, 1)))),
    pass_at_k: k > 1
      ? { k, value: round(mean(perTask.map((t) => passAtK(t.samples, t.resolved, k)))) }
      : null,
    stop_reasons: count(records.map((r) => r.stop_reason)),
    integrity: integrity(records),
    tokens: {
      prompt: records.reduce((n, r) => n + r.usage.prompt_tokens, 0),
      completion: records.reduce((n, r) => n + r.usage.completion_tokens, 0),
    },
    wall_ms: {
      total_sample: wall,
      mean_sample: Math.round(records.length ? wall / records.length : 0),
    },
    training: summarizeTraining(records),
    per_task: perTask,
    ids: sampleIds(records),
    by_language: groupBy(records, (r) => r.language),
    by_difficulty: groupBy(records, (r) => r.difficulty),
    by_kind: groupBy(records, (r) => r.kind),
    ...(impossible.length > 0
      ? {
        impossible: {
          samples: impossible.length,
          rewarded: impossible.filter((r) => (r.reward?.total ?? 0) > 0).length,
          mean_reward: round(mean(impossible.map(reward))),
          episodes: impossible.filter((r) => (r.reward?.total ?? 0) > 0).map((r) => r.episode_id),
        },
      }
      : {}),
  };
}

function sampleIds(records: RecordDigest[]): SampleIds {
  const ids: SampleIds = { resolved: [], unresolved: [], error: [], empty_patch: [] };
  for (const r of records) ids[r.outcome].push(r.episode_id);
  for (const list of Object.values(ids)) list.sort();
  return ids;
}

/** `records` by `key`, each list in the order of `records`. */
function byKey(
  records: RecordDigest[],
  key: (r: RecordDigest) => string,
): Map<string, RecordDigest[]> {
  const groups = new Map<string, RecordDigest[]>();
  for (const r of records) {
    const group = groups.get(key(r));
    if (group) group.push(r);
    else groups.set(key(r), [r]);
  }
  return groups;
}

function groupBy(
  records: RecordDigest[],
  key: (r: RecordDigest) => string,
): Record<string, GroupSummary> {
  const out: Record<string, GroupSummary> = {};
  const groups = byKey(records, key);
  for (const [name, rs] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const byTask = byKey(rs, (r) => r.task_id);
    out[name] = {
      tasks: byTask.size,
      samples: rs.length,
      resolved: rs.filter(resolved).length,
      mean_reward: round(mean(rs.map(reward))),
      pass_at_1: round(
        mean([...byTask.values()].map((t) => passAtK(t.length, t.filter(resolved).length, 1))),
      ),
    };
  }
  return out;
}

/** Token views, drift and tokens with loss of `records`. */
export function summarizeTraining(records: readonly RecordDigest[]): TrainingSummary {
  const viewed = records.filter((r) => r.tokens);
  const drifted = viewed.filter((r) => r.drift).length;
  const loss = viewed.map((r) => r.trainable_tokens);
  return {
    with_tokens: viewed.length,
    drifted,
    drift_rate: round(viewed.length ? drifted / viewed.length : 0),
    trainable_tokens: loss.reduce((a, b) => a + b, 0),
    zero_loss: loss.filter((n) => n === 0).length,
  };
}

/** One line for the summary table. */
export function formatTraining(summary: RunSummary): string {
  const t = summary.training;
  return `training tokens: ${t.with_tokens}/${summary.samples} samples with token ids   drift ${t.drifted} (rate ${
    t.drift_rate.toFixed(3)
  })   trainable tokens ${t.trainable_tokens}   zero-loss samples ${t.zero_loss}`;
}

/** Unbiased pass@k from n samples with c correct (Chen et al. 2021); k > n uses k = n. */
export function passAtK(n: number, c: number, k: number): number {
  if (n === 0) return 0;
  const kk = Math.min(k, n);
  if (n - c < kk) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - kk / i;
  return 1 - fail;
}

function integrity(records: RecordDigest[]): RunSummary["integrity"] {
  // The graded samples' codes (an ungraded one has none to count).
  const codes = records.flatMap((r) => r.integrity === null ? [] : [r.integrity]);
  const tampered = codes.filter((c) => c.length > 0).length;
  return {
    tampered,
    rate: round(codes.length === 0 ? 0 : tampered / codes.length),
    codes: count(codes.flat()),
  };
}

function reward(r: RecordDigest): number {
  return r.reward?.total ?? 0;
}

function resolved(r: RecordDigest): boolean {
  return r.reward?.resolved ?? false;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function count(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
