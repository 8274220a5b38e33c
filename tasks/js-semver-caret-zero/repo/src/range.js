import { compare } from "./compare.js";
import { parseVersion } from "./version.js";
import { caret, hyphen, tilde, xRange } from "./desugar.js";

const COMPARATOR = /^(<=|>=|<|>|=)?\s*(\S+)$/;

/** One comparator ("<2.0.0-0") as a predicate over versions. */
function comparator(text) {
  const [, op = "=", version] = COMPARATOR.exec(text) ?? [];
  if (version === undefined) throw new TypeError(`Invalid comparator: "${text}"`);
  const bound = parseVersion(version);
  const test = {
    "=": (order) => order === 0,
    "<": (order) => order < 0,
    "<=": (order) => order <= 0,
    ">": (order) => order > 0,
    ">=": (order) => order >= 0,
  }[op];
  return { bound, test: (v) => test(compare(v, bound)) };
}

function expand(part) {
  if (part.startsWith("^")) return caret(part.slice(1).trim());
  if (part.startsWith("~")) return tilde(part.slice(1).trim());
  if (/^(<=|>=|<|>|=)/.test(part)) return [part];
  return xRange(part);
}

/** A range's comparator sets (one per "||" alternative). */
export function parseRange(text) {
  return String(text).split("||").map((alternative) => {
    const trimmed = alternative.trim();
    const hyphenated = /^(\S+)\s+-\s+(\S+)$/.exec(trimmed);
    const parts = hyphenated
      ? hyphen(hyphenated[1], hyphenated[2])
      : trimmed.split(/\s+/).filter(Boolean).flatMap(expand);
    return parts.map(comparator);
  });
}

/**
 * Whether `version` is in `range`. A prerelease matches only when some comparator of the same set
 * names a prerelease of the same major.minor.patch.
 */
export function satisfies(version, range) {
  const v = parseVersion(version);
  return parseRange(range).some((set) => {
    if (!set.every((c) => c.test(v))) return false;
    if (v.prerelease.length === 0) return true;
    return set.some((c) =>
      c.bound.prerelease.length > 0 && c.bound.major === v.major && c.bound.minor === v.minor &&
      c.bound.patch === v.patch
    );
  });
}

/** The highest of `versions` in `range`, or null. */
export function maxSatisfying(versions, range) {
  const matching = versions.filter((v) => satisfies(v, range));
  return matching.length === 0 ? null : matching.sort(compare).at(-1);
}
