/** Semantic versions (https://semver.org): parsing, comparison, formatting. */

export interface Version {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated prerelease identifiers; numeric ones are numbers. */
  prerelease: (string | number)[];
}

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Split a prerelease string into identifiers, turning digit-only ones into numbers. */
export function parsePrerelease(text: string | undefined): (string | number)[] {
  if (!text) return [];
  return text.split(".").map((id) => (/^\d+$/.test(id) ? Number(id) : id));
}

/** Parse a full version like "1.2.3-beta.1+build"; throws on anything else. */
export function parseVersion(text: string): Version {
  const m = VERSION_RE.exec(text.trim());
  if (!m) throw new SyntaxError(`invalid version: ${JSON.stringify(text)}`);
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: parsePrerelease(m[4]),
  };
}

function compareIds(a: string | number, b: string | number): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1; // numeric ids sort before alphanumeric
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compare two versions by precedence; build metadata is ignored. */
export function compareVersions(a: Version, b: Version): -1 | 0 | 1 {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core !== 0) return core < 0 ? -1 : 1;
  // A version without prerelease has higher precedence than one with.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return a.prerelease.length === b.prerelease.length ? 0 : a.prerelease.length === 0 ? 1 : -1;
  }
  const n = Math.max(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < n; i++) {
    if (a.prerelease[i] === undefined) return -1;
    if (b.prerelease[i] === undefined) return 1;
    const c = compareIds(a.prerelease[i], b.prerelease[i]);
    if (c !== 0) return c < 0 ? -1 : 1;
  }
  return 0;
}

/** Format a version back to text (without build metadata). */
export function formatVersion(v: Version): string {
  const pre = v.prerelease.length ? `-${v.prerelease.join(".")}` : "";
  return `${v.major}.${v.minor}.${v.patch}${pre}`;
}
