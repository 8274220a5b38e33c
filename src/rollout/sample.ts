/**
 * One sample, end to end: a fresh workspace, the loop, the final diff, the independent grade and
 * the trajectory record. The record is produced even when the policy, a tool or the grader fails.
 */
import { readFileSync } from "node:fs";
import { type EpisodeLimits, type Prompts } from "../agent/config.ts";
import { Episode } from "../agent/episode.ts";
import { type OnTurn, runLoop } from "../agent/loop.ts";
import { PatchgymError } from "../errors.ts";
import type { Policy } from "../policy/types.ts";
import {
  changedLines,
  computeReward,
  DEFAULT_REWARD_CONFIG,
  type Reward,
  type RewardConfig,
} from "../reward/reward.ts";
import type { Task } from "../task/spec.ts";
import { refusedGrade } from "../reward/grade.ts";
import { sandboxSummary } from "../sandbox/runner.ts";
import { diffTooLargeMessage } from "../workspace/limits.ts";
import type { WorkspaceDiff } from "../workspace/diff.ts";
import { buildRecord, type SampleIdentity, type TrajectoryRecord } from "../trajectory/record.ts";
import type { TrainingViewOptions } from "../trajectory/training_view.ts";
import { VERSION } from "../version.ts";
import type { Environment } from "./environment.ts";

/** Options of one sample. */
export interface SampleOptions {
  limits?: Partial<EpisodeLimits>;
  prompts?: Partial<Prompts>;
  reward?: RewardConfig;
  training?: TrainingViewOptions;
  /** Keep the workspace folder instead of removing it. */
  keepWorkspace?: boolean;
  /** Skip grading (reward stays null). */
  skipGrading?: boolean;
  onTurn?: OnTurn;
  /** Aborting it ends the sample early with stop reason `interrupted` and no grading. */
  signal?: AbortSignal;
}

/** Run one sample of `task` with `policy` and return its trajectory record. */
export async function runSample(
  env: Environment,
  task: Task,
  policy: Policy,
  identity: SampleIdentity,
  options: SampleOptions = {},
): Promise<TrajectoryRecord> {
  const startedAt = new Date();
  // Written while the first model request is in flight; tools wait for it (Episode.act).
  const workspace = env.newWorkspace(task, { background: true });
  try {
    const episode = new Episode({ task, workspace, runner: env.runner, limits: env.limits }, {
      limits: options.limits,
      prompts: options.prompts,
      textToolCalls: policy.textToolCalls,
    });
    await runLoop(episode, policy, { onTurn: options.onTurn, signal: options.signal });
    if (!episode.done) episode.stop("policy_error");
    await workspace.ready;
    const diff = await workspace.diff({ maxBytes: env.limits.maxDiffBytes });
    const gradeStarted = performance.now();
    let reward: Reward | null = null;
    if (!options.skipGrading && episode.stopReason !== "interrupted") {
      try {
        reward = await scoreEpisode(env, task, episode, diff, options.reward);
      } catch (error) {
        if (!(error instanceof PatchgymError)) throw error;
        episode.error ??= { code: error.code, message: `Grading failed: ${error.message}` };
      }
    }
    return buildRecord(episode, {
      identity,
      policy: { name: policy.name, model: policy.model, sampling: policy.sampling },
      env_version: VERSION,
      isolation: env.isolation.level,
      sandbox: sandboxSummary(env.isolation),
      diff,
      reward,
      started_at: startedAt,
      grade_ms: performance.now() - gradeStarted,
      training: options.training,
    });
  } finally {
    if (options.keepWorkspace) await workspace.keep();
    else await workspace.remove();
  }
}

/**
 * Grade an episode's final diff and compute its reward. A diff over the size cap is not graded: it
 * earns 0, and the episode's error says so (code `diff_too_large`).
 */
export async function scoreEpisode(
  env: Environment,
  task: Task,
  episode: Episode,
  diff: WorkspaceDiff,
  config: RewardConfig = DEFAULT_REWARD_CONFIG,
): Promise<Reward> {
  const { patch } = diff;
  let grade;
  if (diff.tooLarge) {
    const message = diffTooLargeMessage(diff.tooLarge);
    episode.error ??= { code: "diff_too_large", message };
    grade = refusedGrade(task, message);
  } else {
    grade = await env.grade(task, patch);
  }
  return computeReward(grade, {
    submitted: episode.submission !== null,
    submit_status: episode.submission?.status ?? null,
    invalid_tool_calls: episode.invalidToolCalls(),
    turns: episode.turns.length,
    patch_lines: changedLines(patch),
    reference_patch_lines: referencePatchLines(task),
  }, config);
}

/** Changed lines of the task's reference patch, or null without one. */
export function referencePatchLines(task: Task): number | null {
  return task.solutionPath ? changedLines(readFileSync(task.solutionPath, "utf8")) : null;
}
