/**
 * The trajectory record: one JSON line per sample, snake_case, versioned. It carries everything a
 * trainer needs without matching prompts at a proxy: the conversation, every turn as the model
 * produced it and as the environment answered, the final diff, the reward and a token-level view.
 */
import type { Episode, StopReason, Submission, TurnRecord } from "../agent/episode.ts";
import type { ChatMessage } from "../policy/types.ts";
import type { Reward } from "../reward/reward.ts";
import type { IsolationLevel, SandboxSummary } from "../sandbox/sandbox.ts";
import type { TaskSpec } from "../task/spec.ts";
import type { ToolSchema } from "../tools/registry.ts";
import type { DiffStat } from "../workspace/diff.ts";
import { buildTrainingView, type TrainingView, type TrainingViewOptions } from "./training_view.ts";

/** Format name and version of every record. */
export const TRAJECTORY_FORMAT = "patchgym.trajectory.v1";

/** One sample. */
export interface TrajectoryRecord {
  format: typeof TRAJECTORY_FORMAT;
  run_id: string;
  episode_id: string;
  task_id: string;
  /** Index of the sample within its group. */
  sample: number;
  /** Samples of one task in one run share a group (GRPO-style). */
  group_id: string;
  policy: { name: string; model: string | null; sampling: Record<string, unknown> };
  env_version: string;
  isolation: IsolationLevel;
  /** What held for the sample's child processes: mounts, uid, process and memory caps, kill. */
  sandbox: SandboxSummary;
  task: {
    language: TaskSpec["language"];
    difficulty: TaskSpec["difficulty"];
    kind: TaskSpec["kind"];
    max_turns: number;
  };
  tools: ToolSchema[];
  messages: ChatMessage[];
  turns: TurnRecord[];
  stop_reason: StopReason;
  error: { code: string; message: string } | null;
  submission: Submission | null;
  final_diff: string;
  diff_stat: DiffStat;
  /** Null when grading was skipped or failed (see `error`). */
  reward: Reward | null;
  training: TrainingView;
  usage: { prompt_tokens: number; completion_tokens: number };
  timings: {
    started_at: string;
    wall_ms: number;
    model_ms: number;
    env_ms: number;
    grade_ms: number;
  };
}

/** Identity of a sample within a run. */
export interface SampleIdentity {
  run_id: string;
  episode_id: string;
  task_id: string;
  sample: number;
  group_id: string;
}

/** Everything besides the episode that goes into a record. */
export interface RecordParts {
  identity: SampleIdentity;
  policy: { name: string; model: string | null; sampling: Record<string, unknown> };
  env_version: string;
  isolation: IsolationLevel;
  sandbox: SandboxSummary;
  diff: { patch: string } & DiffStat;
  reward: Reward | null;
  started_at: Date;
  grade_ms: number;
  training?: TrainingViewOptions;
}

/** Assemble the record of a finished episode. */
export function buildRecord(episode: Episode, parts: RecordParts): TrajectoryRecord {
  const spec = episode.task.spec;
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (const turn of episode.turns) {
    usage.prompt_tokens += turn.model.usage?.prompt_tokens ?? 0;
    usage.completion_tokens += turn.model.usage?.completion_tokens ?? 0;
  }
  // An over-size diff's details are in `error` (code diff_too_large).
  const { patch, tooLarge: _tooLarge, ...diffStat } = parts.diff as RecordParts["diff"] & {
    tooLarge?: unknown;
  };
  return {
    format: TRAJECTORY_FORMAT,
    ...parts.identity,
    policy: parts.policy,
    env_version: parts.env_version,
    isolation: parts.isolation,
    sandbox: parts.sandbox,
    task: {
      language: spec.language,
      difficulty: spec.difficulty,
      kind: spec.kind,
      max_turns: episode.limits.max_turns,
    },
    tools: episode.schemas,
    messages: episode.messages,
    turns: episode.turns,
    stop_reason: episode.stopReason ?? "policy_error",
    error: episode.error,
    submission: episode.submission,
    final_diff: patch,
    diff_stat: diffStat,
    reward: parts.reward,
    training: buildTrainingView(episode.turns.map((t) => t.tokens), parts.training),
    usage,
    timings: {
      started_at: parts.started_at.toISOString(),
      wall_ms: Math.round(episode.wallMs()),
      model_ms: Math.round(episode.modelMs),
      env_ms: Math.round(episode.envMs),
      grade_ms: Math.round(parts.grade_ms),
    },
  };
}
