/**
 * The end of an episode, the same for every driver: the final diff, the independent grade and the
 * trajectory record. Nothing here throws: a workspace that cannot be read or a grader that fails
 * leaves `reward` null and says why in the record's `error`.
 */
import { diffTree } from "../patch/diff.ts";
import { readFileSync } from "node:fs";
import { describeError, EnvironmentFault } from "../errors.ts";
import { type GradeResult, refusedGrade } from "../reward/grade.ts";
import { changedLines } from "../patch/stats.ts";
import {
  computeReward,
  DEFAULT_REWARD_CONFIG,
  type Reward,
  type RewardConfig,
} from "../reward/reward.ts";
import { type IsolationInfo, sandboxSummary } from "../sandbox/sandbox.ts";
import type { Task } from "../task/spec.ts";
import { buildRecord, type SampleIdentity, type TrajectoryRecord } from "../trajectory/record.ts";
import type { TrainingViewOptions } from "../trajectory/training_view.ts";
import { VERSION } from "../version.ts";
import type { WorkspaceDiff } from "../patch/diff.ts";
import { diffTooLargeMessage } from "../workspace/limits.ts";
import { reopenedOnDenial } from "../workspace/remove.ts";
import { unreadableTree } from "../workspace/tree.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { Episode } from "./episode.ts";

/** What finishing needs of the environment (`Environment` in src/agent/environment.ts is one). */
export interface GradingEnvironment {
  readonly isolation: IsolationInfo;
  readonly limits: { maxDiffBytes: number };
  grade(task: Task, patch: string, options?: { impossible?: boolean }): Promise<GradeResult>;
}

/** Options of {@linkcode finish}. */
export interface FinishOptions {
  identity: SampleIdentity;
  policy: TrajectoryRecord["policy"];
  startedAt: Date;
  reward?: RewardConfig;
  training?: TrainingViewOptions;
  /** Skip grading (reward stays null). */
  skipGrading?: boolean;
  /** Grade as an impossible sample (see `GradeOptions.impossible`). */
  impossible?: boolean;
}

/** A finished episode: its record, and the diff and reward that went into it. */
export interface Finished {
  record: TrajectoryRecord;
  diff: WorkspaceDiff;
  reward: Reward | null;
}

const NO_DIFF: WorkspaceDiff = { patch: "", created: [], modified: [], deleted: [], binary: [] };

/**
 * End `episode` (as `policy_error` if no reason was given before), read the final diff of
 * `workspace`, grade it unless the episode was interrupted, and build the record. Never throws.
 */
export async function finish(
  episode: Episode,
  workspace: Workspace,
  env: GradingEnvironment,
  options: FinishOptions,
): Promise<Finished> {
  episode.stop("policy_error");
  let diff = NO_DIFF;
  let readable = true;
  try {
    await workspace.ready;
    // The agent's code may have closed up part of its workspace: reopened, as the removal does.
    diff = await reopenedOnDenial(
      workspace.dir,
      () => diffTree(workspace.original, workspace.dir, { maxBytes: env.limits.maxDiffBytes }),
    );
  } catch (error) {
    const { code, message } = describeError(error);
    if (unreadableTree(error)) {
      // Something the agent's code left cannot be read by name (a name that is not UTF-8, a path
      // past PATH_MAX): the change is not graded and earns 0, as one over the diff's cap. Left
      // ungraded, the sample would be out of the rewards: a policy's way out of its 0.
      diff = { ...NO_DIFF, unreadable: message };
    } else {
      readable = false;
      episode.error ??= { code, message: `Reading the final diff failed: ${message}` };
    }
  }
  const gradeStarted = performance.now();
  let reward: Reward | null = null;
  if (readable && !options.skipGrading && episode.stopReason !== "interrupted") {
    try {
      reward = await scoreEpisode(env, episode.task, episode, diff, options.reward, {
        impossible: options.impossible,
      });
    } catch (error) {
      const { code, message } = describeError(error);
      if (error instanceof EnvironmentFault) {
        // This machine could not grade (a runner missing in the jail): not the agent's doing, so
        // the episode ends as an environment error, left out of rewards and the hack rate.
        episode.stopReason = "environment_error";
        episode.error = { code, message: `Grading could not run: ${message}` };
      } else {
        episode.error ??= { code, message: `Grading failed: ${message}` };
      }
    }
  }
  const record = buildRecord(episode, {
    identity: options.identity,
    policy: options.policy,
    env_version: VERSION,
    isolation: env.isolation.level,
    sandbox: sandboxSummary(env.isolation),
    diff,
    reward,
    started_at: options.startedAt,
    grade_ms: performance.now() - gradeStarted,
    training: options.training,
  });
  return { record, diff, reward };
}

/**
 * Grade an episode's final diff and compute its reward. A diff over the size cap is not graded: it
 * earns 0, and the episode's error says so (code `diff_too_large`).
 */
export async function scoreEpisode(
  env: GradingEnvironment,
  task: Task,
  episode: Episode,
  diff: WorkspaceDiff,
  config: RewardConfig = DEFAULT_REWARD_CONFIG,
  grading: { impossible?: boolean } = {},
): Promise<Reward> {
  const { patch } = diff;
  let grade;
  if (diff.tooLarge) {
    const message = diffTooLargeMessage(diff.tooLarge);
    episode.error ??= { code: "diff_too_large", message };
    grade = refusedGrade(task, message);
  } else if (diff.unreadable !== undefined) {
    const message =
      `The workspace holds files or folders that cannot be read by name, so its final diff is not graded: ${diff.unreadable}`;
    episode.error ??= { code: "tree_unreadable", message };
    grade = refusedGrade(task, message);
  } else {
    grade = await env.grade(task, patch, grading);
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

/** Changed lines of the task's reference patch, or null without one (read once per file). */
export function referencePatchLines(task: Task): number | null {
  if (!task.solutionPath) return null;
  let lines = REFERENCE_LINES.get(task.solutionPath);
  if (lines === undefined) {
    lines = changedLines(readFileSync(task.solutionPath, "utf8"));
    REFERENCE_LINES.set(task.solutionPath, lines);
  }
  return lines;
}

/** Changed lines of reference patches by path: task files do not change during a run. */
const REFERENCE_LINES = new Map<string, number>();
