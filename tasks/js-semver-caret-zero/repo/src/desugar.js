/**
 * Shorthand ranges (tilde, caret, x-ranges, hyphens) rewritten as plain comparators, e.g.
 * "~1.2.3" -> [">=1.2.3", "<1.3.0-0"]. The "-0" suffix keeps prereleases of the upper bound out.
 */

const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/;

function isWild(part) {
  return part === undefined || part === "x" || part === "X" || part === "*";
}

/** The numbers of a partial version ("1", "1.2", "1.x"); null parts are wildcards. */
export function parsePartial(text) {
  const match = PARTIAL.exec(text);
  if (match === null) throw new TypeError(`Invalid version in range: "${text}"`);
  const [major, minor, patch] = [match[1], match[2], match[3]].map((p) =>
    isWild(p) ? null : Number(p)
  );
  return { major, minor, patch, prerelease: match[4] ?? null };
}

function lower({ major, minor, patch, prerelease }) {
  const core = `${major}.${minor ?? 0}.${patch ?? 0}`;
  return prerelease && patch !== null ? `${core}-${prerelease}` : core;
}

/** Comparators for an x-range such as "1.x" or "1.2". */
export function xRange(text) {
  const v = parsePartial(text);
  if (v.major === null) return [];
  if (v.minor === null) return [`>=${v.major}.0.0`, `<${v.major + 1}.0.0-0`];
  if (v.patch === null) return [`>=${v.major}.${v.minor}.0`, `<${v.major}.${v.minor + 1}.0-0`];
  return [`=${lower(v)}`];
}

/** "~1.2.3" allows patch changes; "~1" allows minor changes. */
export function tilde(text) {
  const v = parsePartial(text);
  if (v.major === null) return [];
  if (v.minor === null) return [`>=${v.major}.0.0`, `<${v.major + 1}.0.0-0`];
  return [`>=${lower(v)}`, `<${v.major}.${v.minor + 1}.0-0`];
}

/** "^1.2.3" allows changes that do not modify the left-most non-zero number. */
export function caret(text) {
  const v = parsePartial(text);
  if (v.major === null) return [];
  return [`>=${lower(v)}`, `<${v.major + 1}.0.0-0`];
}

/** "1.2.3 - 2.3" is inclusive on both sides; a partial upper bound includes its whole range. */
export function hyphen(from, to) {
  const a = parsePartial(from);
  const b = parsePartial(to);
  const upper = b.major === null
    ? []
    : b.minor === null
    ? [`<${b.major + 1}.0.0-0`]
    : b.patch === null
    ? [`<${b.major}.${b.minor + 1}.0-0`]
    : [`<=${lower(b)}`];
  return [...(a.major === null ? [] : [`>=${lower(a)}`]), ...upper];
}
