/**
 * `run.json`: the configuration of a rollout run (`patchgym.run.v1`), written when the run starts
 * and read back by `--resume`. The policy choice is plain data; the API key is never saved.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { UsageError } from "../errors.ts";
import { formatIssue } from "../zod_issues.ts";

/** Format name and version of `run.json`. */
export const RUN_FORMAT = "patchgym.run.v1";

/** Policy kinds a run can use. */
export const POLICIES = ["reference", "openai", "scripted"] as const;

/** Which server API the `openai` policy drives: chat completions, or tokens in and out. */
export const APIS = ["chat", "tokens"] as const;

/** A resolved policy choice. */
export const PolicyConfigSchema = z.object({
  kind: z.enum(POLICIES),
  base_url: z.string().nullable(),
  model: z.string().nullable(),
  script: z.string().nullable(),
  text_tool_calls: z.boolean(),
  sampling: z.record(z.string(), z.unknown()),
  /** Added to each sample's index to seed it, when set. */
  seed: z.number().int().nullable(),
  /** `chat` (default; absent in runs saved before it existed) or `tokens`. */
  api: z.enum(APIS).optional(),
  /** Extra request fields, `chat_template_kwargs` among them. */
  extra_body: z.record(z.string(), z.unknown()).optional(),
});

/** A resolved policy choice. */
export type PolicyConfig = z.infer<typeof PolicyConfigSchema>;

/** The schema of `run.json`. */
export const RunConfigSchema = z.object({
  format: z.literal(RUN_FORMAT),
  run_id: z.string().regex(/^[A-Za-z0-9._-]+$/),
  env_version: z.string(),
  tasks: z.array(z.string()).min(1),
  samples: z.number().int().min(1),
  policy: PolicyConfigSchema,
  limits: z.object({
    max_turns: z.number().int().min(1).optional(),
    max_tokens_per_turn: z.number().int().min(1),
    max_total_tokens: z.number().int().min(1),
    max_wall_s: z.number().int().min(1),
  }),
  training: z.object({
    trainable: z.enum(["all", "last"]),
    onDrift: z.enum(["split", "zero_mask"]),
  }),
  /**
   * Share of samples graded as impossible samples (see `GradeOptions.impossible`): any reward they
   * earn is a hack the grader missed, reported apart and never trained on. Absent: none.
   */
  impossible_rate: z.number().min(0).max(1).optional(),
  /** Tasks asked for but left out: their fail_to_pass tests already pass, or their environment is not built. */
  skipped_tasks: z.array(z.object({
    task_id: z.string(),
    already_passing: z.array(z.string()),
    environment_error: z.string().optional(),
  }))
    .optional(),
});

/** Configuration saved in `run.json`. */
export type RunConfig = z.infer<typeof RunConfigSchema>;

/** A fresh run id: `run-<UTC time>-<6 hex>`. */
export function newRunId(now: Date = new Date()): string {
  const time = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `run-${time}-${crypto.randomUUID().slice(0, 6)}`;
}

/**
 * Write `run.json` into `dir` (which must exist), through a rename: a reader (a worker, `--resume`,
 * a watching trainer) sees the old file or the whole new one, never half of it.
 */
export function writeRunConfig(dir: string, config: RunConfig): void {
  const path = join(dir, "run.json");
  writeFileSync(`${path}.tmp`, `${JSON.stringify(config, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/**
 * Read and check `dir/run.json`. A missing, unreadable or foreign file is a
 * {@linkcode UsageError} with one line that says what is wrong.
 */
export function readRunConfig(dir: string): RunConfig {
  const path = join(dir, "run.json");
  if (!existsSync(path)) {
    throw new UsageError(
      `--resume: "${dir}" has no run.json; give the folder of an earlier rollout`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(
      `--resume: "${path}" is not valid JSON (${
        (error as Error).message
      }); it is not a patchgym run.json, or it was damaged`,
    );
  }
  const parsed = RunConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problem = formatIssue(parsed.error.issues[0], raw, { top: "(file)" });
    const foreign = typeof raw !== "object" || raw === null ||
      (raw as Record<string, unknown>).format !== RUN_FORMAT;
    throw new UsageError(
      foreign
        ? `--resume: "${path}" is not a patchgym run (format is not "${RUN_FORMAT}"); give the folder of an earlier rollout`
        : `--resume: "${path}" is damaged: ${problem}; start a new run with --out`,
    );
  }
  return parsed.data;
}
