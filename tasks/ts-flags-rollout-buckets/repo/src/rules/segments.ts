/** Segment membership: explicit exclusions win, then inclusions, then conditions. */
import type { Context, Segment } from "./types.ts";
import { matchAll, type SegmentLookup } from "./match.ts";

export function inSegment(segment: Segment, ctx: Context, segments: SegmentLookup): boolean {
  if (segment.excluded?.includes(ctx.key)) return false;
  if (segment.included?.includes(ctx.key)) return true;
  if (!segment.conditions || segment.conditions.length === 0) return false;
  return matchAll(segment.conditions, ctx, segments);
}
