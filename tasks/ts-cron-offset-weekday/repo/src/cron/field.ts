/** Parsing one cron field (a wildcard, steps, "1-5", "MON-FRI", "0,30") into allowed values. */

/** Thrown for invalid cron expressions; `field` names the offending field. */
export class CronSyntaxError extends Error {
  constructor(readonly field: string, readonly text: string, reason: string) {
    super(`cron ${field} field "${text}": ${reason}`);
    this.name = "CronSyntaxError";
  }
}

/** Bounds and names of one field. */
export interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Symbolic names ("JAN", "MON") mapped to values. */
  aliases?: Record<string, number>;
}

/** A parsed field: the allowed values, and whether it was "*" (matters for day fields). */
export interface Field {
  values: ReadonlySet<number>;
  wildcard: boolean;
}

function value(spec: FieldSpec, text: string, whole: string): number {
  const alias = spec.aliases?.[text.toUpperCase()];
  const n = alias ?? (/^\d+$/.test(text) ? Number(text) : NaN);
  if (Number.isNaN(n) || n < spec.min || n > spec.max) {
    throw new CronSyntaxError(spec.name, whole, `"${text}" is not in ${spec.min}-${spec.max}`);
  }
  return n;
}

/** Parses the comma-separated list of ranges and steps in `text`. */
export function parseField(spec: FieldSpec, text: string): Field {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronSyntaxError(spec.name, text, `bad step "${stepText}"`);
    let lo: number, hi: number;
    if (range === "*") {
      [lo, hi] = [spec.min, spec.max];
    } else if (range.includes("-")) {
      const [a, b] = range.split("-");
      [lo, hi] = [value(spec, a, text), value(spec, b, text)];
      if (lo > hi) throw new CronSyntaxError(spec.name, text, `range ${range} is reversed`);
    } else {
      lo = value(spec, range, text);
      hi = stepText === undefined ? lo : spec.max;
    }
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return { values, wildcard: text === "*" };
}
