/**
 * The multi-turn loop, kept small: check limits, ask the policy, step, repeat until the agent
 * submits or a limit is hit. A failing policy ends the episode as `policy_error`; anything a step
 * throws ends it as `environment_error` (see `step`); the episode is complete either way.
 */
import { describeError } from "../errors.ts";
import type { Policy } from "../policy/types.ts";
import type { Episode } from "./episode.ts";
import { pace } from "./pace.ts";
import { step } from "./step.ts";

/** Progress callback, called after every turn. */
export type OnTurn = (episode: Episode) => void;

/** Options of {@linkcode runLoop}. */
export interface LoopOptions {
  onTurn?: OnTurn;
  /** Aborting it (e.g. Ctrl-C) ends the episode as `interrupted`; callers discard such samples. */
  signal?: AbortSignal;
}

/** Run `episode` with `policy` until it stops. Never throws. */
export async function runLoop(
  episode: Episode,
  policy: Policy,
  options: LoopOptions = {},
): Promise<Episode> {
  while (!episode.done) {
    await pace();
    if (options.signal?.aborted) {
      episode.stop("interrupted");
      break;
    }
    if (episode.checkLimits()) break;
    const remainingMs = episode.limits.max_wall_s * 1000 - episode.elapsedMs();
    const timeout = AbortSignal.timeout(Math.max(1, remainingMs));
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let turn;
    try {
      turn = await policy.next({
        messages: episode.messages,
        tools: episode.schemas,
        maxTokens: episode.nextMaxTokens(),
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) episode.stop("interrupted");
      else if (timeout.aborted) episode.stop("time_limit");
      else episode.stop("policy_error", describeError(error));
      break;
    }
    await pace();
    await step(episode, turn);
    options.onTurn?.(episode);
  }
  return episode;
}
