/**
 * Ready-made weighers.
 */

/** Every entry weighs 1. */
export function unitWeight(): number {
  return 1;
}

const encoder = new TextEncoder();

/** UTF-8 byte length of string values (other values weigh 1). */
export function utf8Weight(_key: unknown, value: unknown): number {
  return typeof value === "string" ? encoder.encode(value).length : 1;
}

/** Checks a weight returned by a user weigher. */
export function checkWeight(weight: number): number {
  if (!Number.isFinite(weight) || weight < 0) throw new RangeError(`weigher returned ${weight}; weights must be finite and >= 0`);
  return weight;
}
