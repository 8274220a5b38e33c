/**
 * The multi-turn loop, kept small: check limits, ask the policy, act, repeat until the agent
 * submits or a limit is hit. A failing policy ends the episode as `policy_error`; broken
 * infrastructure ends it as `environment_error`; the episode is complete either way.
 */
import { PatchgymError } from "../errors.ts";
import type { Policy } from "../policy/types.ts";
import type { Episode } from "./episode.ts";

/** Progress callback, called after every turn. */
export type OnTurn = (episode: Episode) => void;

/** Options of {@linkcode runLoop}. */
export interface LoopOptions {
  onTurn?: OnTurn;
  /** Aborting it (e.g. Ctrl-C) ends the episode as `interrupted`; callers discard such samples. */
  signal?: AbortSignal;
}

/** Run `episode` with `policy` until it stops. Never throws for policy or tool failures. */
export async function runLoop(
  episode: Episode,
  policy: Policy,
  options: LoopOptions = {},
): Promise<Episode> {
  while (!episode.done) {
    if (options.signal?.aborted) {
      episode.stop("interrupted");
      break;
    }
    const limit = episode.limitReached();
    if (limit) {
      episode.stop(limit);
      break;
    }
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
      else episode.stop("policy_error", describe(error));
      break;
    }
    try {
      await episode.act(turn);
    } catch (error) {
      if (!(error instanceof PatchgymError)) throw error;
      episode.stop("environment_error", describe(error));
    }
    options.onTurn?.(episode);
  }
  return episode;
}

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof PatchgymError) return { code: error.code, message: error.message };
  return {
    code: "unexpected",
    message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  };
}
