/**
 * Memoizing a one-argument function through any {@linkcode Cache}.
 */
import type { Cache } from "./core/types.ts";

/** Wraps `fn` so that results are looked up in `cache` first. `undefined` results are not cached. */
export function memoize<A, R>(fn: (arg: A) => R, cache: Cache<A, R>): (arg: A) => R {
  return (arg: A) => {
    const cached = cache.get(arg);
    if (cached !== undefined) return cached;
    const result = fn(arg);
    if (result !== undefined) cache.set(arg, result);
    return result;
  };
}
