/**
 * The trajectory record: one JSON line per sample, snake_case, versioned. It carries everything a
 * trainer needs without matching prompts at a proxy: the conversation, every turn as the model
 * produced it and as the environment answered, the final diff, the reward and a token-level view.
 *
 * {@linkcode TrajectoryRecordSchema} is the format contract: the writer's output must satisfy it
 * (checked by the type of {@linkcode buildRecord}), and resume, export, `show` and the report read
 * records through {@linkcode parseRecord}. Objects accept fields they do not list, so a newer
 * writer that adds a field stays readable; the fields listed are checked with their types.
 */
import { z } from "zod";
import { integerArray, LOGPROBS, TOKEN_IDS } from "../number_arrays.ts";
import type { ChatMessage, TurnTokens } from "../policy/types.ts";
import type { Task } from "../task/spec.ts";
import type { ToolSchema } from "../tools/registry.ts";
import type { Reward } from "../reward/reward.ts";
import type { IsolationLevel, SandboxSummary } from "../sandbox/sandbox.ts";
import type { IntegrityCode } from "../sandbox/test_runner.ts";
import type { DiffStat } from "../patch/diff.ts";
import { formatIssues } from "../zod_issues.ts";
import { buildTrainingView, type TrainingViewOptions } from "./training_view.ts";
/** Format name and version of every record. */
export const TRAJECTORY_FORMAT = "patchgym.trajectory.v1";

/** Why an episode ended; a closed set written into the trajectory. */
export type StopReason =
  | "submitted"
  | "max_turns"
  | "time_limit"
  | "token_limit"
  | "policy_error"
  | "environment_error"
  | "interrupted"
  | "finished";

/** What a tool call did, as recorded. */
export interface ToolRecord {
  name: string;
  arguments: unknown;
  ok: boolean;
  code: string | null;
  output: string;
  truncated: boolean;
  duration_ms: number;
  meta: Record<string, unknown> | null;
}

/** One turn: the model's output, the action taken, and its result. */
export interface TurnRecord {
  index: number;
  model: {
    content: string | null;
    reasoning: string | null;
    tool_calls: unknown[] | null;
    finish_reason: string | null;
    usage: { prompt_tokens: number; completion_tokens: number } | null;
    latency_ms: number;
    parse_errors: string[];
  };
  /** `tool_call` when a call was executed, `no_tool_call` when the reply had none (nudged). */
  action: "tool_call" | "no_tool_call";
  tool: ToolRecord | null;
  /** Extra tool calls in the reply that were not executed. */
  dropped_tool_calls: number;
  tokens: TurnTokens | null;
}

/** The submit call's arguments, once the agent submitted. */
export interface Submission {
  status: "solved" | "blocked";
  summary: string;
}

const counts = z.object({ passed: z.number().int(), total: z.number().int() });
const nullableString = z.string().nullable();

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/** One chat message in OpenAI format. */
export const ChatMessageSchema = z.discriminatedUnion("role", [
  z.object({ role: z.literal("system"), content: z.string() }),
  z.object({ role: z.literal("user"), content: z.string() }),
  z.object({
    role: z.literal("assistant"),
    content: nullableString,
    tool_calls: z.array(toolCallSchema).optional(),
    reasoning_content: z.string().optional(),
  }),
  z.object({
    role: z.literal("tool"),
    tool_call_id: z.string(),
    name: z.string(),
    content: z.string(),
  }),
]);

/** Why an episode ended: a closed set. */
export const STOP_REASONS = [
  "submitted",
  "max_turns",
  "time_limit",
  "token_limit",
  "policy_error",
  "environment_error",
  "interrupted",
  /** The trainer ended a served episode (`serve`'s finish). */
  "finished",
] as const;

const turnSchema = z.object({
  index: z.number().int(),
  model: z.object({
    content: nullableString,
    reasoning: nullableString,
    tool_calls: z.array(z.unknown()).nullable(),
    finish_reason: nullableString,
    usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullable(),
    latency_ms: z.number(),
    parse_errors: z.array(z.string()),
  }),
  action: z.enum(["tool_call", "no_tool_call"]),
  tool: z.object({
    name: z.string(),
    arguments: z.unknown(),
    ok: z.boolean(),
    code: nullableString,
    output: z.string(),
    truncated: z.boolean(),
    duration_ms: z.number(),
    meta: z.record(z.string(), z.unknown()).nullable(),
  }).nullable(),
  dropped_tool_calls: z.number().int(),
  tokens: z.object({
    prompt_ids: TOKEN_IDS.nullable(),
    completion_ids: TOKEN_IDS.nullable(),
    logprobs: LOGPROBS.nullable(),
  }).nullable(),
});

const segmentSchema = z.object({
  first_turn: z.number().int(),
  prompt_ids: TOKEN_IDS,
  response_ids: TOKEN_IDS,
  loss_mask: integerArray("0s and 1s", { min: 0, max: 1 }),
  rollout_logprobs: LOGPROBS.nullable(),
}).refine(
  (s) =>
    s.loss_mask.length === s.response_ids.length &&
    (s.rollout_logprobs === null || s.rollout_logprobs.length === s.response_ids.length),
  { message: "loss_mask and rollout_logprobs must be as long as response_ids" },
);

const rewardSchema = z.object({
  total: z.number(),
  resolved: z.boolean(),
  components: z.object({
    fail_to_pass: counts,
    pass_to_pass: counts,
    submitted: z.boolean(),
    submit_status: z.enum(["solved", "blocked"]).nullable(),
    patch_applied: z.boolean(),
    test_report_problem: nullableString.optional(),
    /** Integrity problem codes of the test run (absent in records written before they existed). */
    integrity: z.array(z.string()).optional() as z.ZodOptional<z.ZodType<IntegrityCode[]>>,
    protected_path_edits: z.array(z.string()),
    invalid_tool_calls: z.number().int(),
    turns: z.number().int(),
    patch_lines: z.number().int(),
    reference_patch_lines: z.number().int().nullable(),
    patch_size_ratio: z.number().nullable(),
  }),
  tests: z.object({
    fail_to_pass: z.record(z.string(), z.string()),
    pass_to_pass: z.record(z.string(), z.string()),
  }),
  /** Bounded output of the tests that failed, when the grader kept it. */
  failures: z.array(z.object({ id: z.string(), outcome: z.string(), output: z.string() }))
    .optional(),
  /** Expected tests judged wholly outside the jail (absent in records written before). */
  judged_outside: z.array(z.string()).optional(),
  /** An impossible sample: reported apart, never trained on. */
  impossible: z.literal(true).optional(),
});

/** One sample: the schema of a `trajectories.jsonl` line. */
export const TrajectoryRecordSchema = z.object({
  format: z.literal(TRAJECTORY_FORMAT, {
    error: `must be "${TRAJECTORY_FORMAT}"; this is not a patchgym trajectory record`,
  }),
  run_id: z.string(),
  episode_id: z.string(),
  task_id: z.string(),
  /** Index of the sample within its group. */
  sample: z.number().int().min(0),
  /** Samples of one task in one run share a group (GRPO-style). */
  group_id: z.string(),
  policy: z.object({
    name: z.string(),
    model: nullableString,
    sampling: z.record(z.string(), z.unknown()),
  }),
  env_version: z.string(),
  /** `bwrap` or `process`. */
  isolation: z.string(),
  /** What held for the sample's child processes (absent in records written before it existed). */
  sandbox: z.custom<SandboxSummary>((v) => typeof v === "object" && v !== null).optional(),
  task: z.object({
    language: z.string(),
    difficulty: z.string(),
    kind: z.string(),
    max_turns: z.number().int(),
  }),
  tools: z.array(z.object({
    type: z.literal("function"),
    function: z.object({
      name: z.string(),
      description: z.string(),
      parameters: z.record(z.string(), z.unknown()),
    }),
  })),
  messages: z.array(ChatMessageSchema),
  turns: z.array(turnSchema),
  stop_reason: z.enum(STOP_REASONS),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  submission: z.object({ status: z.enum(["solved", "blocked"]), summary: z.string() }).nullable(),
  final_diff: z.string(),
  diff_stat: z.object({
    created: z.array(z.string()),
    modified: z.array(z.string()),
    deleted: z.array(z.string()),
    binary: z.array(z.string()),
  }),
  /** Null when grading was skipped or failed (see `error`). */
  reward: rewardSchema.nullable(),
  training: z.object({
    available: z.boolean(),
    reason: nullableString,
    token_drift: z.boolean(),
    drift_turns: z.array(z.unknown()).optional(),
    drift_rule: z.string().optional(),
    trainable_turns: z.string().optional(),
    segments: z.array(segmentSchema),
  }),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }),
  timings: z.object({
    started_at: z.string(),
    wall_ms: z.number(),
    model_ms: z.number(),
    env_ms: z.number(),
    grade_ms: z.number(),
  }),
});

/** One sample, as the format defines it. */
export type TrajectoryRecord = z.infer<typeof TrajectoryRecordSchema>;

/** A record checked against the schema, or every problem found with its field. */
export type ParsedRecord =
  | { ok: true; record: TrajectoryRecord }
  | { ok: false; problems: string[] };

/**
 * Check a parsed JSON value against {@linkcode TrajectoryRecordSchema}. The record returned is the
 * value as written (fields the schema does not list are kept, not stripped).
 */
export function parseRecord(value: unknown): ParsedRecord {
  const format = (value as { format?: unknown } | null)?.format;
  if (format !== TRAJECTORY_FORMAT) {
    // Something else entirely: one line, not a list of every missing field.
    return {
      ok: false,
      problems: [`format: must be "${TRAJECTORY_FORMAT}", got ${JSON.stringify(format ?? null)}`],
    };
  }
  const parsed = TrajectoryRecordSchema.safeParse(value);
  if (parsed.success) return { ok: true, record: value as TrajectoryRecord };
  return { ok: false, problems: formatIssues(parsed.error, value, { top: "(record)" }) };
}

/** Parsed JSONL: the valid records, and every problem with its line number. */
export interface ParsedTrajectories {
  records: TrajectoryRecord[];
  problems: string[];
  /** Lines that were not valid records. */
  badLines: number[];
  /** The last line was cut short (an interrupted run) and was ignored. */
  partial: boolean;
}

/**
 * Parse and check trajectory JSONL. A last line that is not valid JSON was cut short by a crash
 * and is ignored (reported in `partial`); any other bad line is a problem naming its line.
 */
export function parseTrajectories(text: string): ParsedTrajectories {
  const lines = text.split("\n");
  const result: ParsedTrajectories = { records: [], problems: [], badLines: [], partial: false };
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      if (i === lines.length - 1) result.partial = true;
      else {
        result.badLines.push(i + 1);
        result.problems.push(`line ${i + 1}: not valid JSON: ${(error as Error).message}`);
      }
      return;
    }
    const parsed = parseRecord(raw);
    if (parsed.ok) result.records.push(parsed.record);
    else {
      result.badLines.push(i + 1);
      result.problems.push(...parsed.problems.map((p) => `line ${i + 1}: ${p}`));
    }
  });
  return result;
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

/** What {@linkcode buildRecord} reads of a finished episode (the agent's `Episode` is one). */
export interface FinishedEpisode {
  readonly task: Task;
  readonly limits: { max_turns: number };
  readonly schemas: ToolSchema[];
  readonly messages: ChatMessage[];
  readonly turns: TurnRecord[];
  readonly stopReason: StopReason | null;
  readonly error: { code: string; message: string } | null;
  readonly submission: Submission | null;
  readonly modelMs: number;
  readonly envMs: number;
  wallMs(): number;
}

/** Assemble the record of a finished episode. */
export function buildRecord(episode: FinishedEpisode, parts: RecordParts): TrajectoryRecord {
  const spec = episode.task.spec;
  const usage = { prompt_tokens: 0, completion_tokens: 0 };
  for (const turn of episode.turns) {
    usage.prompt_tokens += turn.model.usage?.prompt_tokens ?? 0;
    usage.completion_tokens += turn.model.usage?.completion_tokens ?? 0;
  }
  // An over-size or unreadable diff's details are in `error` (diff_too_large, tree_unreadable).
  const { patch, tooLarge: _tooLarge, unreadable: _unreadable, ...diffStat } = parts
    .diff as RecordParts["diff"] & { tooLarge?: unknown; unreadable?: unknown };
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
    training: buildTrainingView(episode.turns.map((t) => t.tokens), {
      ...parts.training,
      policy: parts.policy.name,
    }),
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
