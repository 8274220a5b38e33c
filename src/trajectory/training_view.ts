/**
 * The token-level training view of a trajectory, built only from server-returned token ids (never
 * by re-tokenizing). Each turn's prompt must start with the previous prompt plus completion (the
 * prefix property); a turn that breaks it is token drift, flagged and handled by a rule.
 */
import type { TurnTokens } from "../policy/types.ts";

/** Which assistant turns carry loss: all of them, or only the last. */
export type TrainableTurns = "all" | "last";
/** On drift: start a new segment at the drifting turn, or keep segments but zero every mask. */
export type DriftRule = "split" | "zero_mask";

/** One contiguous token sequence: the first prompt, then everything after it. */
export interface TrainingSegment {
  /** Index of the turn whose prompt starts this segment. */
  first_turn: number;
  prompt_ids: number[];
  /** Model tokens and environment tokens (tool results, template) after the prompt, interleaved. */
  response_ids: number[];
  /** 1 for model-generated tokens, 0 for prompt and tool tokens; same length as response_ids. */
  loss_mask: number[];
  /** Sampling logprob of each response token (0 where the mask is 0); null without logprobs. */
  rollout_logprobs: number[] | null;
}

/** Tokens with loss in `segment` (its mask's 1s). */
export function countLoss(segment: TrainingSegment): number {
  return segment.loss_mask.reduce((n: number, m) => n + m, 0);
}

/** The training view recorded in a trajectory. */
export interface TrainingView {
  available: boolean;
  /** Why there is no view (the server returned no token ids), when unavailable. */
  reason: string | null;
  token_drift: boolean;
  /** Turns whose prompt did not extend the previous sequence. */
  drift_turns: number[];
  drift_rule: DriftRule;
  trainable_turns: TrainableTurns;
  segments: TrainingSegment[];
}

/** Options for {@linkcode buildTrainingView}. */
export interface TrainingViewOptions {
  trainable?: TrainableTurns;
  onDrift?: DriftRule;
  /** The policy's name: a policy that makes no tokens is named in the reason. */
  policy?: string;
}

/** Policies that make no tokens (they replay or script tool calls), with what they do. */
const TOKENLESS_POLICIES: Record<string, string> = {
  reference: "replays each task's reference patch",
  scripted: "plays a script of tool calls",
};

/**
 * Why a policy's episodes have no token ids, when it is one that never makes tokens; null for a
 * model policy (whose server may or may not return them).
 */
export function noTokensReason(policy: string): string | null {
  const does = TOKENLESS_POLICIES[policy];
  return does === undefined
    ? null
    : `the ${policy} policy makes no tokens (it ${does}); token ids come from the openai policy with a model server that returns them (--base-url URL; vLLM: --api tokens)`;
}

/** Build the view from each turn's tokens (null entries: the server returned nothing that turn). */
export function buildTrainingView(
  turns: (TurnTokens | null)[],
  options: TrainingViewOptions = {},
): TrainingView {
  const trainable = options.trainable ?? "all";
  const rule = options.onDrift ?? "split";
  const view: TrainingView = {
    available: false,
    reason: null,
    token_drift: false,
    drift_turns: [],
    drift_rule: rule,
    trainable_turns: trainable,
    segments: [],
  };
  if (turns.length === 0) {
    view.reason = "no model turns";
    return view;
  }
  const missing = turns.findIndex((t) => !t?.prompt_ids || !t?.completion_ids);
  if (missing !== -1) {
    view.reason = noTokensReason(options.policy ?? "") ??
      `the server returned no token ids for turn ${missing} (vLLM: run a version that supports "return_token_ids"); patchgym does not re-tokenize`;
    return view;
  }
  const withLogprobs = turns.every((t) =>
    t!.logprobs && t!.logprobs.length === t!.completion_ids!.length
  );
  let segment: TrainingSegment | null = null;
  const lastTurn = turns.length - 1;
  turns.forEach((tokens, index) => {
    const prompt = tokens!.prompt_ids!;
    const completion = tokens!.completion_ids!;
    const trainableTurn = trainable === "all" || index === lastTurn;
    if (segment !== null) {
      const sequence = [...segment.prompt_ids, ...segment.response_ids];
      if (startsWith(prompt, sequence)) {
        append(segment, prompt.slice(sequence.length), 0, null);
      } else {
        view.token_drift = true;
        view.drift_turns.push(index);
        segment = null;
      }
    }
    if (segment === null) {
      segment = {
        first_turn: index,
        prompt_ids: [...prompt],
        response_ids: [],
        loss_mask: [],
        rollout_logprobs: withLogprobs ? [] : null,
      };
      view.segments.push(segment);
    }
    append(segment, completion, trainableTurn ? 1 : 0, withLogprobs ? tokens!.logprobs! : null);
  });
  if (view.token_drift && rule === "zero_mask") {
    // Keep the documented invariant: a logprob is 0 wherever the mask is 0.
    for (const s of view.segments) {
      s.loss_mask.fill(0);
      s.rollout_logprobs?.fill(0);
    }
  }
  view.available = true;
  return view;
}

function append(
  segment: TrainingSegment,
  ids: number[],
  mask: 0 | 1,
  logprobs: number[] | null,
): void {
  for (let i = 0; i < ids.length; i++) {
    segment.response_ids.push(ids[i]);
    segment.loss_mask.push(mask);
    segment.rollout_logprobs?.push(mask === 1 && logprobs ? logprobs[i] : 0);
  }
}

function startsWith(ids: number[], prefix: number[]): boolean {
  if (prefix.length > ids.length) return false;
  for (let i = 0; i < prefix.length; i++) if (ids[i] !== prefix[i]) return false;
  return true;
}
