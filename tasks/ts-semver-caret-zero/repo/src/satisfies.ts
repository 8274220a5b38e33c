/** Matching versions against ranges. */
import { compareVersions, parseVersion, Version } from "./version.ts";
import { Comparator, parseRange, Range } from "./range.ts";

function test(c: Comparator, version: Version): boolean {
  const cmp = compareVersions(version, c.version);
  switch (c.op) {
    case "<":
      return cmp < 0;
    case "<=":
      return cmp <= 0;
    case ">":
      return cmp > 0;
    case ">=":
      return cmp >= 0;
    case "=":
      return cmp === 0;
  }
}

function setMatches(set: Comparator[], version: Version): boolean {
  if (!set.every((c) => test(c, version))) return false;
  if (version.prerelease.length === 0) return true;
  // A prerelease only matches when some comparator opts into prereleases of
  // the same major.minor.patch tuple (npm semantics).
  return set.some((c) =>
    c.version.prerelease.length > 0 &&
    c.version.major === version.major &&
    c.version.minor === version.minor &&
    c.version.patch === version.patch
  );
}

/** Whether `version` satisfies `range`. */
export function satisfies(version: string | Version, range: string | Range): boolean {
  const ver = typeof version === "string" ? parseVersion(version) : version;
  const sets = typeof range === "string" ? parseRange(range) : range;
  return sets.some((set) => setMatches(set, ver));
}

/** The highest version in the list satisfying the range, or null. */
export function maxSatisfying(versions: string[], range: string): string | null {
  const sets = parseRange(range);
  let best: { text: string; version: Version } | null = null;
  for (const text of versions) {
    const version = parseVersion(text);
    if (!satisfies(version, sets)) continue;
    if (!best || compareVersions(version, best.version) > 0) best = { text, version };
  }
  return best?.text ?? null;
}
