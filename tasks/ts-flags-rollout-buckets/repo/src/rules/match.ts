/** Evaluating rule conditions against a context. */
import type { Condition, Context, Segment } from "./types.ts";
import { inSegment } from "./segments.ts";

/** Lookup for segments referenced by `inSegment` conditions. */
export type SegmentLookup = (key: string) => Segment | undefined;

/** True when `condition` holds for `ctx`. Missing attributes never match. */
export function matchCondition(condition: Condition, ctx: Context, segments: SegmentLookup): boolean {
  if (condition.op === "inSegment") {
    const segment = segments(condition.segment);
    return segment !== undefined && inSegment(segment, ctx, segments);
  }
  const actual = condition.attribute === "key" ? ctx.key : ctx.attributes?.[condition.attribute];
  if (actual === undefined) return false;
  switch (condition.op) {
    case "eq":
      return actual === condition.value;
    case "in":
      return condition.values.includes(actual);
    case "startsWith":
      return typeof actual === "string" && actual.startsWith(condition.value);
    case "gt":
      return typeof actual === "number" && actual > condition.value;
    case "lt":
      return typeof actual === "number" && actual < condition.value;
  }
}

/** True when every condition holds (an empty list always matches). */
export function matchAll(conditions: Condition[], ctx: Context, segments: SegmentLookup): boolean {
  return conditions.every((c) => matchCondition(c, ctx, segments));
}
