/**
 * Trajectory records to trainer formats, one JSON object per line: `verl` (verl's
 * `AgentLoopOutput`, field for field), `skyrl` (one element of SkyRL's `GeneratorOutput` per
 * line), `atropos` (one scored group per `group_id`, as Atropos' `ScoredDataGroup`) and `sft`
 * (chat messages with reasoning folded in, and tools). Rows without a loss token are left out and
 * counted; an export with no loss token at all, or a token format over records without token ids,
 * comes back with a refusal the CLI turns into an error. Pure: records in, lines out.
 *
 * Checked against verl `verl/experimental/agent_loop/agent_loop.py` at b178a3cd (Jan 2026) and
 * SkyRL `skyrl/train/generators/base.py` at a9564572 (Aug 2026).
 */
import { foldReasoning } from "../policy/reasoning.ts";
import { countLoss, noTokensReason } from "./training_view.ts";
import type { AssistantMessage, ChatMessage, ChatToolCall } from "../policy/types.ts";
import type { TrajectoryRecord } from "./record.ts";
import type { TrainingSegment } from "./training_view.ts";

/** The formats {@linkcode exportTrajectories} writes. */
export const EXPORT_FORMATS = ["verl", "skyrl", "atropos", "sft"] as const;
/** One of {@linkcode EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Which training segments of a split episode become rows. */
export const SEGMENT_CHOICES = ["last", "all"] as const;

/** Options of {@linkcode exportTrajectories}. */
export interface ExportOptions {
  /** Keep only records whose reward says `resolved` (every expected test passed). */
  onlySuccessful?: boolean;
  /**
   * `last` (default): one row per episode, its last segment with a loss token, so GRPO groups
   * count every sample once. `all`: every such segment, marked with `segment_index`,
   * `segment_count` and `is_last_step` for step-wise advantage (compute on the last, copy back).
   */
  segments?: (typeof SEGMENT_CHOICES)[number];
  /**
   * `sft` tool-call arguments: `string` (default), the JSON text the model wrote, as OpenAI sends
   * it; `object`, parsed, for chat templates that serialize arguments themselves (`| tojson`). An
   * argument text that is not a JSON object stays the string the model wrote, and is counted.
   */
  toolArguments?: (typeof TOOL_ARGUMENT_CHOICES)[number];
}

/** How `sft` rows carry tool-call arguments. */
export const TOOL_ARGUMENT_CHOICES = ["string", "object"] as const;

/** Why an export must not be written. */
export interface ExportRefusal {
  /** `no_token_ids`: a token format over records without token ids; `no_loss_tokens`: nothing to train on. */
  code: "no_token_ids" | "no_loss_tokens";
  message: string;
}

/** What an export produced. */
export interface ExportResult {
  /** The rows, one per JSON line (or Parquet row for `sft`), in order. */
  rows: ExportRow[];
  /** Records given. */
  records: number;
  /** Records left after `onlySuccessful`. */
  kept: number;
  /** Records that contributed no line or no tokens, each reason with a count. */
  warnings: string[];
  /** Tokens with loss in the lines written (null for `sft`, which has no token ids). */
  loss_tokens: number | null;
  /** Set when the lines must not be written as a training batch. */
  refusal: ExportRefusal | null;
}

/** One `verl` line: verl's `AgentLoopOutput`, field for field. */
export interface VerlRow {
  prompt_ids: number[];
  /** Model tokens and tool or template tokens after the prompt. */
  response_ids: number[];
  /** 1 where the model generated the token (loss applies), 0 for tool and template tokens. */
  response_mask: number[];
  /** Sampling logprob per response token (0 where the mask is 0), or null without logprobs. */
  response_logprobs: number[] | null;
  routed_experts: null;
  multi_modal_data: null;
  reward_score: number;
  /** Chat turns as verl counts them: the prompt, then each assistant and each tool/user turn. */
  num_turns: number;
  /** Seconds spent generating and in tools (`num_preempted` -1: not available). */
  metrics: { generate_sequences: number; tool_calls: number; num_preempted: number };
  /** verl copies these into the batch's non-tensor fields; `uid` is the GRPO group. */
  extra_fields: RowFields & { uid: string };
}

/** Identity and segment facts carried by every token row. */
export interface RowFields {
  episode_id: string;
  task_id: string;
  sample: number;
  /** Position of this row among the episode's rows, its row count, and whether it is the last. */
  segment_index: number;
  segment_count: number;
  is_last_step: boolean;
  token_drift: boolean;
  stop_reason: string;
}

/** One `skyrl` line: one element of each list of SkyRL's `GeneratorOutput`. */
export interface SkyrlRow {
  prompt_token_ids: number[];
  response_ids: number[];
  /** The sample's reward on its last step; 0 on earlier steps (step-wise training). */
  rewards: number;
  loss_masks: number[];
  stop_reasons: string;
  rollout_logprobs: number[] | null;
  trajectory_ids: { instance_id: string; repetition_id: number };
  is_last_step: boolean;
  env_metrics: RowFields;
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

/** A tool call in an `sft` row: arguments as the JSON text, or parsed when asked. */
export type SftToolCall = Omit<ChatToolCall, "function"> & {
  function: { name: string; arguments: string | Record<string, unknown> };
};

/** A message of an `sft` row: reasoning folded into the content, arguments as asked. */
export type SftMessage =
  | Exclude<ChatMessage, AssistantMessage>
  | {
    role: "assistant";
    /** Never null: "" where the model wrote only a tool call. */
    content: string;
    tool_calls?: SftToolCall[];
  };

/** One `sft` line. */
export interface SftRow {
  messages: SftMessage[];
  tools: TrajectoryRecord["tools"];
}

/** A row of any format. */
export type ExportRow = VerlRow | SkyrlRow | AtroposGroup | SftRow;

/** Label Atropos uses for positions without loss. */
export const ATROPOS_IGNORE = -100;

/** Convert records to lines of `format`. */
export function exportTrajectories(
  records: TrajectoryRecord[],
  format: ExportFormat,
  options: ExportOptions = {},
): ExportResult {
  // Impossible samples are a measurement of the grader, never training data.
  const trainable = records.filter((r) => r.reward?.impossible !== true);
  const kept = options.onlySuccessful
    ? trainable.filter((r) => r.reward?.resolved === true)
    : trainable;
  const warnings: string[] = [];
  let rows: ExportRow[];
  let lossTokens: number | null = null;
  let refusal: ExportRefusal | null = null;
  if (format === "sft") {
    const toolArguments = options.toolArguments ?? "string";
    const sft = kept.map((record) => toSft(record, toolArguments));
    rows = sft;
    // Asked for objects, the calls whose arguments stayed text are the ones that did not parse.
    const unparsed = toolArguments === "object"
      ? sft.flatMap((row) => row.messages)
        .flatMap((m) => m.role === "assistant" ? m.tool_calls ?? [] : [])
        .filter((call) => typeof call.function.arguments === "string").length
      : 0;
    if (unparsed > 0) {
      warnings.push(
        `Kept ${unparsed} tool calls' arguments as the text the model wrote: not a JSON object`,
      );
    }
  } else {
    const scored = kept.filter((r) => r.reward !== null);
    if (scored.length < kept.length) {
      warnings.push(
        `Skipped ${
          kept.length - scored.length
        } of ${kept.length} records without a reward (grading skipped or failed)`,
      );
    }
    if (format === "atropos") {
      const groups = toAtropos(scored);
      const untokenized = groups.filter((g) => g.tokens === undefined).length;
      if (untokenized > 0) {
        warnings.push(
          `${untokenized} of ${groups.length} groups have a sample without a single token sequence (no token view, or token drift split it); wrote them with messages only`,
        );
      }
      rows = groups;
      lossTokens = groups.reduce(
        (n, g) => n + (g.masks ?? []).flat().filter((m) => m !== ATROPOS_IGNORE).length,
        0,
      );
    } else {
      const usable = scored.filter((r) => r.training.available);
      if (usable.length < scored.length) {
        const first = scored.find((r) => !r.training.available);
        // Older records of a tokenless policy blame the server: name the policy instead.
        const tokenless = first ? noTokensReason(first.policy.name) : null;
        const reason = tokenless ?? first?.training.reason ?? "unknown";
        const message = `${
          scored.length - usable.length
        } of ${scored.length} records have no token view (first reason: ${reason})`;
        if (usable.length === 0 && scored.length > 0) {
          refusal = {
            code: "no_token_ids",
            message: tokenless
              ? `Cannot export ${format}: it needs token ids, and ${tokenless}; or use --format sft, which needs none`
              : `Cannot export ${format}: it needs token ids and ${message}; roll out against a server that returns them (vLLM with return_token_ids, or --api tokens), or use --format sft`,
          };
        } else warnings.push(`Skipped ${message}; --format sft needs no tokens`);
      }
      const segments = options.segments ?? "last";
      const picked = usable.map((r) => ({ record: r, ...pickSegments(r, segments) }));
      const empty = picked.filter((p) => p.segments.length === 0).length;
      if (empty > 0) {
        warnings.push(
          `Skipped ${empty} of ${usable.length} episodes with no loss token (token drift under --on-drift zero_mask, or --trainable last after a split)`,
        );
      }
      const dropped = picked.reduce((n, p) => n + p.dropped, 0);
      if (dropped > 0) {
        warnings.push(
          `Left out ${dropped} earlier segments of split episodes (one row per episode keeps GRPO groups unbiased); --segments all writes them with is_last_step for step-wise advantage`,
        );
      }
      const toRow = format === "verl" ? verlRow : skyrlRow;
      rows = picked.flatMap((p) =>
        p.segments.map((segment, i) => toRow(p.record, segment, i, p.segments.length))
      );
      lossTokens = picked.reduce(
        (n, p) => n + p.segments.reduce((m, s) => m + countLoss(s), 0),
        0,
      );
    }
  }
  if (refusal === null && (rows.length === 0 || lossTokens === 0)) {
    refusal = {
      code: "no_loss_tokens",
      message: rows.length === 0
        ? `Nothing to export: no ${format} rows from ${records.length} records${
          options.onlySuccessful ? ` (${kept.length} resolved)` : ""
        }`
        : `Nothing to train on: the ${rows.length} ${format} rows have no token with loss`,
    };
  }
  return {
    rows,
    records: records.length,
    kept: kept.length,
    warnings,
    loss_tokens: lossTokens,
    refusal,
  };
}

/** The segments of a record that become rows, and how many with loss were left out. */
function pickSegments(
  record: TrajectoryRecord,
  which: "last" | "all",
): { segments: TrainingSegment[]; dropped: number } {
  const withLoss = record.training.segments.filter((s) => countLoss(s) > 0);
  if (which === "all" || withLoss.length <= 1) return { segments: withLoss, dropped: 0 };
  return { segments: withLoss.slice(-1), dropped: withLoss.length - 1 };
}

function rowFields(
  record: TrajectoryRecord,
  index: number,
  count: number,
): RowFields {
  return {
    episode_id: record.episode_id,
    task_id: record.task_id,
    sample: record.sample,
    segment_index: index,
    segment_count: count,
    is_last_step: index === count - 1,
    token_drift: record.training.token_drift,
    stop_reason: record.stop_reason,
  };
}

function verlRow(
  record: TrajectoryRecord,
  segment: TrainingSegment,
  index: number,
  count: number,
): VerlRow {
  return {
    prompt_ids: segment.prompt_ids,
    response_ids: segment.response_ids,
    response_mask: segment.loss_mask,
    response_logprobs: segment.rollout_logprobs,
    routed_experts: null,
    multi_modal_data: null,
    reward_score: record.reward?.total ?? 0,
    num_turns: 1 + 2 * (record.turns?.length ?? 0),
    metrics: {
      generate_sequences: (record.timings?.model_ms ?? 0) / 1000,
      tool_calls: (record.timings?.env_ms ?? 0) / 1000,
      num_preempted: -1,
    },
    extra_fields: { uid: record.group_id, ...rowFields(record, index, count) },
  };
}

function skyrlRow(
  record: TrajectoryRecord,
  segment: TrainingSegment,
  index: number,
  count: number,
): SkyrlRow {
  const fields = rowFields(record, index, count);
  return {
    prompt_token_ids: segment.prompt_ids,
    response_ids: segment.response_ids,
    rewards: fields.is_last_step ? record.reward?.total ?? 0 : 0,
    loss_masks: segment.loss_mask,
    stop_reasons: record.stop_reason,
    rollout_logprobs: segment.rollout_logprobs,
    trajectory_ids: { instance_id: record.group_id, repetition_id: record.sample },
    is_last_step: fields.is_last_step,
    env_metrics: fields,
  };
}

/** The `verl` rows of one record (see {@linkcode ExportOptions.segments}). */
export function toVerl(record: TrajectoryRecord, segments: "last" | "all" = "last"): VerlRow[] {
  if (!record.training.available || record.reward === null) return [];
  const picked = pickSegments(record, segments).segments;
  return picked.map((s, i) => verlRow(record, s, i, picked.length));
}

/** The `skyrl` rows of one record (see {@linkcode ExportOptions.segments}). */
export function toSkyrl(record: TrajectoryRecord, segments: "last" | "all" = "last"): SkyrlRow[] {
  if (!record.training.available || record.reward === null) return [];
  const picked = pickSegments(record, segments).segments;
  return picked.map((s, i) => skyrlRow(record, s, i, picked.length));
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

/**
 * The `sft` row of one record. Reasoning is folded into the assistant content as
 * `<think>...</think>`, so the model's own chat template renders the tokens it generated. A null
 * content (a reply with only a tool call) becomes "", as vLLM rendered it; transformers' templates
 * such as Qwen3's fail on null.
 */
export function toSft(
  record: TrajectoryRecord,
  toolArguments: ExportOptions["toolArguments"] = "string",
): SftRow {
  return {
    messages: record.messages.map((m): SftMessage => {
      if (m.role !== "assistant") return m;
      const folded = foldReasoning(m);
      const message = { ...folded, content: folded.content ?? "" };
      if (toolArguments === "string" || !message.tool_calls) return message;
      return {
        ...message,
        tool_calls: message.tool_calls.map((call) => ({
          ...call,
          function: {
            ...call.function,
            arguments: argumentObject(call.function.arguments) ?? call.function.arguments,
          },
        })),
      };
    }),
    tools: record.tools,
  };
}

/** The arguments text parsed, when it is a JSON object; null otherwise. */
function argumentObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
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
