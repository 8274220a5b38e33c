/** Parsing ISO-8601 duration strings. */
import { DATE_PARTS, duration, type Duration, TIME_PARTS } from "./duration.ts";

/** Thrown for strings that are not ISO-8601 durations. */
export class DurationSyntaxError extends Error {
  constructor(readonly input: string, reason: string) {
    super(`invalid duration "${input}": ${reason}`);
    this.name = "DurationSyntaxError";
  }
}

const COMPONENT = /(\d+(?:[.,]\d+)?)([A-Z])/g;

/**
 * Parses "P3DT12H", "PT0.5S", "-P1W" and the like. Only the last component may have a
 * fraction (a comma is accepted as the decimal sign), components must appear in order, and
 * at least one must be present.
 */
export function parseDuration(input: string): Duration {
  const match = /^([+-])?P([^T]*)(?:T(.*))?$/.exec(input);
  if (!match) throw new DurationSyntaxError(input, 'expected "P" followed by components');
  const [, sign, datePart, timePart] = match;
  if (timePart === "") throw new DurationSyntaxError(input, '"T" must be followed by a component');
  const result = duration({ negative: sign === "-" });
  const found = [
    ...readComponents(input, datePart, DATE_PARTS, result),
    ...readComponents(input, timePart ?? "", TIME_PARTS, result),
  ];
  if (found.length === 0) throw new DurationSyntaxError(input, "no components");
  if (found.slice(0, -1).some((text) => /[.,]/.test(text))) {
    throw new DurationSyntaxError(input, "only the smallest component may have a fraction");
  }
  return result;
}

function readComponents(
  input: string,
  text: string,
  parts: readonly (readonly [keyof Duration, string])[],
  into: Duration,
): string[] {
  const numbers: string[] = [];
  let consumed = 0;
  let nextPart = 0;
  for (const m of text.matchAll(COMPONENT)) {
    if (m.index !== consumed) throw new DurationSyntaxError(input, `unexpected "${text[consumed]}"`);
    consumed += m[0].length;
    const index = parts.findIndex(([, designator], i) => i >= nextPart && designator === m[2]);
    if (index === -1) {
      throw new DurationSyntaxError(input, `unexpected or out-of-order designator "${m[2]}"`);
    }
    nextPart = index + 1;
    (into as unknown as Record<string, number>)[parts[index][0]] = Number(m[1].replace(",", "."));
    numbers.push(m[1]);
  }
  if (consumed !== text.length) throw new DurationSyntaxError(input, `trailing "${text.slice(consumed)}"`);
  return numbers;
}
