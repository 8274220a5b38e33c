/** Loading flag definitions and evaluating them by key. */
import type { Context, Flag, Segment } from "./rules/types.ts";
import { evaluate, type Evaluation } from "./evaluate/evaluator.ts";

/** Thrown for definitions that would evaluate inconsistently. */
export class FlagDefinitionError extends Error {
  constructor(readonly flagKey: string, reason: string) {
    super(`flag "${flagKey}": ${reason}`);
    this.name = "FlagDefinitionError";
  }
}

function checkFlag(flag: Flag): void {
  const known = (variant: string) => Object.hasOwn(flag.variants, variant);
  if (!known(flag.offVariant)) throw new FlagDefinitionError(flag.key, `unknown offVariant "${flag.offVariant}"`);
  for (const target of [flag.fallthrough, ...flag.rules.map((r) => r.serve)]) {
    const variants = "variant" in target ? [target.variant] : target.rollout.map((w) => w.variant);
    for (const v of variants) {
      if (!known(v)) throw new FlagDefinitionError(flag.key, `unknown variant "${v}"`);
    }
    if ("rollout" in target) {
      const total = target.rollout.reduce((sum, w) => sum + w.weight, 0);
      if (total > 100) throw new FlagDefinitionError(flag.key, `rollout weights sum to ${total}`);
    }
  }
}

/** Holds flags and segments and evaluates flags by key. */
export class FlagStore {
  readonly #flags = new Map<string, Flag>();
  readonly #segments = new Map<string, Segment>();

  constructor(definitions: { flags: Flag[]; segments?: Segment[] }) {
    for (const flag of definitions.flags) {
      checkFlag(flag);
      this.#flags.set(flag.key, flag);
    }
    for (const segment of definitions.segments ?? []) this.#segments.set(segment.key, segment);
  }

  /** Evaluates flag `key`; unknown flags give `undefined`. */
  evaluate(key: string, ctx: Context): Evaluation | undefined {
    const flag = this.#flags.get(key);
    return flag && evaluate(flag, ctx, (s) => this.#segments.get(s));
  }

  /** The value of a boolean flag, or `fallback` when the flag is unknown. */
  isEnabled(key: string, ctx: Context, fallback = false): boolean {
    const evaluation = this.evaluate(key, ctx);
    return evaluation === undefined ? fallback : evaluation.value === true;
  }
}
