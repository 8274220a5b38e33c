/** Flag evaluation: disabled check, targeting rules in order, then the fallthrough. */
import { matchAll, type SegmentLookup } from "../rules/match.ts";
import type { Context, Flag, Serve } from "../rules/types.ts";
import { pickVariant } from "./rollout.ts";

/** Why a variant was served. */
export type Reason =
  | { kind: "off" }
  | { kind: "rule"; ruleId: string }
  | { kind: "fallthrough" }
  | { kind: "rollout_gap" };

/** The outcome of evaluating a flag for one context. */
export interface Evaluation {
  variant: string;
  value: unknown;
  reason: Reason;
}

function serve(flag: Flag, target: Serve, ctx: Context): string | undefined {
  if ("variant" in target) return target.variant;
  return pickVariant(flag.salt, ctx.key, target.rollout);
}

/** Evaluates `flag` for `ctx`. A rollout that leaves the user out serves the off variant. */
export function evaluate(flag: Flag, ctx: Context, segments: SegmentLookup = () => undefined): Evaluation {
  const result = (variant: string, reason: Reason): Evaluation => ({
    variant,
    value: flag.variants[variant],
    reason,
  });
  if (!flag.enabled) return result(flag.offVariant, { kind: "off" });
  for (const rule of flag.rules) {
    if (!matchAll(rule.conditions, ctx, segments)) continue;
    const variant = serve(flag, rule.serve, ctx);
    return variant === undefined
      ? result(flag.offVariant, { kind: "rollout_gap" })
      : result(variant, { kind: "rule", ruleId: rule.id });
  }
  const variant = serve(flag, flag.fallthrough, ctx);
  return variant === undefined
    ? result(flag.offVariant, { kind: "rollout_gap" })
    : result(variant, { kind: "fallthrough" });
}
