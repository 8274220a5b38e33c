/**
 * One step of an episode, the same for every driver: apply the policy's reply, then enforce the
 * limits. Nothing a step does throws: an exception (a tool's bug, a workspace that could not be
 * written) ends the episode as `environment_error` with the error in the record.
 */
import { describeError } from "../errors.ts";
import type { ChatMessage, PolicyTurn } from "../policy/types.ts";
import type { Episode } from "./episode.ts";

/** Apply `turn` to a running `episode`; returns the observation (empty when the step failed). */
export async function step(episode: Episode, turn: PolicyTurn): Promise<ChatMessage[]> {
  let observation: ChatMessage[];
  try {
    observation = await episode.act(turn);
  } catch (error) {
    episode.stop("environment_error", describeError(error));
    return [];
  }
  episode.checkLimits();
  return observation;
}
