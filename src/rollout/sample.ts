/**
 * One sample, end to end: a fresh workspace, the loop, then `finish` (final diff, independent
 * grade, trajectory record). A record is produced whatever fails: the policy, a tool, the
 * workspace or the grader; the sample never throws, so one broken sample cannot stop a run.
 */
import { type EpisodeLimits, type Prompts } from "../agent/config.ts";
import { Episode } from "../agent/episode.ts";
import { finish } from "../agent/finish.ts";
import { type OnTurn, runLoop } from "../agent/loop.ts";
import { pace } from "../agent/pace.ts";
import type { Policy } from "../policy/types.ts";
import type { RewardConfig } from "../reward/reward.ts";
import type { Task } from "../task/spec.ts";
import type { SampleIdentity, TrajectoryRecord } from "../trajectory/record.ts";
import type { TrainingViewOptions } from "../trajectory/training_view.ts";
import { Workspace } from "../workspace/workspace.ts";
import type { Environment } from "../agent/environment.ts";

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
  /** Clock in ms for the episode's limits; tests swap it. */
  now?: () => number;
  /** Grade as an impossible sample (see `GradeOptions.impossible`). */
  impossible?: boolean;
}

/** Run one sample of `task` with `policy` and return its trajectory record. */
export async function runSample(
  env: Environment,
  task: Task,
  policy: Policy,
  identity: SampleIdentity,
  options: SampleOptions = {},
): Promise<TrajectoryRecord> {
  await pace();
  const startedAt = new Date();
  const environment = env.environment(task);
  if (environment?.error) {
    // A dependency environment that is not built is the machine's fault, never the task's.
    return await failedSample(env, task, policy, identity, {
      code: "environment_missing",
      message: environment.error,
    }, options);
  }
  // Written while the first model request is in flight; tools wait for it (Episode.act).
  const workspace = env.newWorkspace(task, { background: true });
  try {
    const episode = new Episode({
      task,
      workspace,
      sandbox: env.sandbox,
      limits: env.limits,
      ...(environment ? { environment } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    }, {
      limits: options.limits,
      prompts: options.prompts,
      textToolCalls: policy.textToolCalls,
      now: options.now,
    });
    await runLoop(episode, policy, { onTurn: options.onTurn, signal: options.signal });
    await pace();
    const { record } = await finish(episode, workspace, env, {
      identity,
      policy: { name: policy.name, model: policy.model, sampling: policy.sampling },
      startedAt,
      reward: options.reward,
      training: options.training,
      skipGrading: options.skipGrading,
      impossible: options.impossible,
    });
    return record;
  } finally {
    if (options.keepWorkspace) await workspace.keep().catch(() => {});
    else await workspace.remove().catch(() => {});
  }
}

/**
 * The record of a sample that could not be run at all (a queue job that kept killing or failing
 * its workers): stop reason `environment_error` with `error`, no turns, not graded. It goes through
 * the same `finish` as every other sample, over a workspace that was never written.
 */
export async function failedSample(
  env: Environment,
  task: Task,
  policy: Policy,
  identity: SampleIdentity,
  error: { code: string; message: string },
  options: SampleOptions = {},
): Promise<TrajectoryRecord> {
  const ready = Promise.reject(new Error(error.message));
  ready.catch(() => {});
  const workspace = new Workspace(
    `${env.workRoot}/${task.spec.id}-unrun`,
    { dirs: [], files: [], byPath: new Map() },
    { ready },
  );
  const episode = new Episode({ task, workspace, sandbox: env.sandbox, limits: env.limits }, {
    limits: options.limits,
    prompts: options.prompts,
    textToolCalls: policy.textToolCalls,
  });
  episode.stop("environment_error", error);
  const { record } = await finish(episode, workspace, env, {
    identity,
    policy: { name: policy.name, model: policy.model, sampling: policy.sampling },
    startedAt: new Date(),
    training: options.training,
    skipGrading: true,
  });
  return record;
}
