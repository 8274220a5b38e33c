/**
 * Trajectory records to trainer formats, one JSON object per line: `verl` (packed token segments
 * for verl / SkyRL-style trainers), `atropos` (one scored group per `group_id`, as Atropos'
 * `ScoredDataGroup`) and `sft` (chat messages and tools). Pure: records in, lines out; reading
 * and writing files is the CLI's job.
 */
import type { ChatMessage } from "../policy/types.ts";
import type { TrajectoryRecord } from "./record.ts";
import type { TrainingSegment } from "./training_view.ts";

/** The formats {@linkcode exportTrajectories} writes. */
export const EXPORT_FORMATS = ["verl", "atropos", "sft"] as const;
/** One of {@linkcode EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Options of {@linkcode exportTrajectories}. */
export interface ExportOptions {
  /** Keep only records whose reward says `resolved` (every expected test passed). */
  onlySuccessful?: boolean;
}

/** What an export produced. */
export interface ExportResult {
  /** JSON lines, without line endings. */
  lines: string[];
  /** Records given. */
  records: number;
  /** Records left after `onlySuccessful`. */
  kept: number;
  /** Records that contributed no line or no tokens, each reason with a count. */
  warnings: string[];
}

/** One `verl` line: a training segment of one sample. */
export interface VerlRow {
  prompt_ids: number[];
  response_ids: number[];
  /** 1 where the model generated the token (loss applies), 0 for tool and template tokens. */
  response_mask: number[];
  /** Sampling logprob per response token (0 where the mask is 0), or null without logprobs. */
  rollout_log_probs: number[] | null;
  reward: number;
  /** The sample's group, for group-relative advantages. */
  uid: string;
  episode_id: string;
  task_id: string;
  token_drift: boolean;
}

/** One `atropos` line: every sample of one group. */
export interface AtroposGroup {
  group_id: string;
  task_id: string;
  /** Prompt then response ids per sample; absent when a sample has no single token sequence. */
  tokens?: number[][];
  /** Aligned with `tokens`: -100 where no loss applies, else the token id. */
  masks?: number[][];
  scores: number[];
  messages: ChatMessage[][];
}

/** One `sft` line. */
export interface SftRow {
  messages: ChatMessage[];
  tools: TrajectoryRecord["tools"];
}

/** Label Atropos uses for positions without loss. */
export const ATROPOS_IGNORE = -100;

/** Convert records to lines of `format`. */
export function exportTrajectories(
  records: TrajectoryRecord[],
  format: ExportFormat,
  options: ExportOptions = {},
): ExportResult {
  const kept = options.onlySuccessful
    ? records.filter((r) => r.reward?.resolved === true)
    : records;
  const warnings: string[] = [];
  let rows: unknown[];
  if (format === "sft") {
    rows = kept.map(toSft);
  } else {
    const scored = kept.filter((r) => r.reward !== null);
    if (scored.length < kept.length) {
      warnings.push(
        `Skipped ${
          kept.length - scored.length
        } of ${kept.length} records without a reward (grading skipped or failed)`,
      );
    }
    if (format === "verl") {
      const usable = scored.filter((r) => r.training.available);
      if (usable.length < scored.length) {
        const reason = scored.find((r) => !r.training.available)?.training.reason ?? "unknown";
        warnings.push(
          `Skipped ${
            scored.length - usable.length
          } of ${scored.length} records without a token view (first reason: ${reason}); --format sft needs no tokens`,
        );
      }
      rows = usable.flatMap(toVerl);
    } else {
      const groups = toAtropos(scored);
      const untokenized = groups.filter((g) => g.tokens === undefined).length;
      if (untokenized > 0) {
        warnings.push(
          `${untokenized} of ${groups.length} groups have a sample without a single token sequence (no token view, or token drift split it); wrote them with messages only`,
        );
      }
      rows = groups;
    }
  }
  return {
    lines: rows.map((row) => JSON.stringify(row)),
    records: records.length,
    kept: kept.length,
    warnings,
  };
}

/** The `verl` rows of one record: one per training segment, none without a token view. */
export function toVerl(record: TrajectoryRecord): VerlRow[] {
  if (!record.training.available || record.reward === null) return [];
  const reward = record.reward.total;
  return record.training.segments.map((segment) => ({
    prompt_ids: segment.prompt_ids,
    response_ids: segment.response_ids,
    response_mask: segment.loss_mask,
    rollout_log_probs: segment.rollout_logprobs,
    reward,
    uid: record.group_id,
    episode_id: record.episode_id,
    task_id: record.task_id,
    token_drift: record.training.token_drift,
  }));
}

/**
 * One Atropos group per `group_id`, in order of first appearance, samples in `sample` order.
 * Records without a reward are left out. Tokens and masks are given only when every sample of
 * the group is one token sequence; otherwise the group carries scores and messages only.
 */
export function toAtropos(records: TrajectoryRecord[]): AtroposGroup[] {
  const byGroup = new Map<string, TrajectoryRecord[]>();
  for (const record of records) {
    if (record.reward === null) continue;
    byGroup.set(record.group_id, [...(byGroup.get(record.group_id) ?? []), record]);
  }
  return [...byGroup.entries()].map(([groupId, members]) => {
    const samples = [...members].sort((a, b) => a.sample - b.sample);
    const sequences = samples.map(singleSegment);
    const tokenized = sequences.every((s): s is TrainingSegment => s !== null)
      ? {
        tokens: sequences.map((s) => [...s.prompt_ids, ...s.response_ids]),
        masks: sequences.map(atroposMask),
      }
      : {};
    return {
      group_id: groupId,
      task_id: samples[0].task_id,
      ...tokenized,
      scores: samples.map((r) => r.reward?.total ?? 0),
      messages: samples.map((r) => r.messages),
    };
  });
}

/** The `sft` row of one record. */
export function toSft(record: TrajectoryRecord): SftRow {
  return { messages: record.messages, tools: record.tools };
}

function singleSegment(record: TrajectoryRecord): TrainingSegment | null {
  const { available, segments } = record.training;
  return available && segments.length === 1 ? segments[0] : null;
}

function atroposMask(segment: TrainingSegment): number[] {
  return [
    ...segment.prompt_ids.map(() => ATROPOS_IGNORE),
    ...segment.response_ids.map((id, i) => segment.loss_mask[i] === 1 ? id : ATROPOS_IGNORE),
  ];
}
