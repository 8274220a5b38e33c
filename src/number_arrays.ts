/**
 * Schemas of long arrays of numbers (token ids, log-probabilities, loss masks), checked in one loop:
 * zod's element-by-element parse took 57-123 us for 4,000 ids, an episode's later prompt, against
 * 17 us here, and a model's answer, a trainer's step and a record each carry several. Their JSON
 * Schema is written by {@linkcode NUMBER_ARRAYS_JSON_SCHEMA}.
 */
import { z } from "zod";

const jsonSchemas = new WeakMap<object, Record<string, unknown>>();

/** An array of safe integers from `min` to `max`; `what` names them in the error. */
export function integerArray(
  what: string,
  range: { min?: number; max?: number } = {},
): z.ZodType<number[]> {
  const { min = -Infinity, max = Infinity } = range;
  const schema = z.custom<number[]>(
    (value) =>
      Array.isArray(value) &&
      value.every((n) => Number.isSafeInteger(n) && n >= min && n <= max),
    { message: `expected an array of ${what}` },
  );
  jsonSchemas.set(schema, {
    type: "array",
    // As zod writes a safe integer's.
    items: {
      type: "integer",
      minimum: range.min ?? Number.MIN_SAFE_INTEGER,
      maximum: range.max ?? Number.MAX_SAFE_INTEGER,
    },
  });
  return schema;
}

/** An array of finite numbers (`nullable`: or nulls); `what` names them in the error. */
export function numberArray<N extends boolean = false>(
  what: string,
  options: { nullable?: N } = {},
): z.ZodType<N extends true ? (number | null)[] : number[]> {
  const nullable = options.nullable === true;
  const schema = z.custom<N extends true ? (number | null)[] : number[]>(
    (value) =>
      Array.isArray(value) &&
      value.every((n) => (nullable && n === null) || (typeof n === "number" && Number.isFinite(n))),
    { message: `expected an array of ${what}` },
  );
  jsonSchemas.set(schema, {
    type: "array",
    items: nullable ? { type: ["number", "null"] } : { type: "number" },
  });
  return schema;
}

/** Token ids as models and records give them. */
export const TOKEN_IDS = integerArray("integer token ids");

/** Log-probabilities, one per token. */
export const LOGPROBS = numberArray("log-probabilities");

/** Options of `z.toJSONSchema` for schemas holding these arrays; other custom schemas still throw. */
export const NUMBER_ARRAYS_JSON_SCHEMA = {
  unrepresentable: "any",
  override(ctx: { zodSchema: object; jsonSchema: Record<string, unknown> }): void {
    const known = jsonSchemas.get(ctx.zodSchema);
    if (known) {
      Object.assign(ctx.jsonSchema, known);
      return;
    }
    const type = (ctx.zodSchema as { _zod?: { def?: { type?: string } } })._zod?.def?.type;
    if (type === "custom") throw new Error("Custom types cannot be represented in JSON Schema");
  },
} as const;
