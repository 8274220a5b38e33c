/**
 * Range syntax (a subset of npm's):
 *
 *   range      := set ( "||" set )*
 *   set        := term ( " " term )*
 *   term       := [op] partial | "^" partial | "~" partial | "*"
 *   partial    := N | N.N | N.N.N[-pre]   (any N may be x, X or *)
 *
 * Caret allows changes that do not modify the left-most non-zero component:
 * ^1.2.3 := >=1.2.3 <2.0.0, ^0.2.3 := >=0.2.3 <0.3.0, ^0.0.3 := >=0.0.3 <0.0.4.
 * Tilde allows patch-level changes: ~1.2.3 := >=1.2.3 <1.3.0, ~1 := >=1.0.0 <2.0.0.
 */
import { parsePrerelease, Version } from "./version.ts";

export type Op = "<" | "<=" | ">" | ">=" | "=";

export interface Comparator {
  op: Op;
  version: Version;
}

/** Alternatives (OR) of comparator sets (AND). */
export type Range = Comparator[][];

interface Partial {
  major?: number;
  minor?: number;
  patch?: number;
  prerelease: (string | number)[];
}

const PARTIAL_RE = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/;

function num(part: string | undefined): number | undefined {
  return part === undefined || /^[xX*]$/.test(part) ? undefined : Number(part);
}

function parsePartial(text: string): Partial {
  const m = PARTIAL_RE.exec(text);
  if (!m) throw new SyntaxError(`invalid version in range: ${JSON.stringify(text)}`);
  const major = num(m[1]);
  const minor = major === undefined ? undefined : num(m[2]);
  const patch = minor === undefined ? undefined : num(m[3]);
  return { major, minor, patch, prerelease: patch === undefined ? [] : parsePrerelease(m[4]) };
}

function v(major: number, minor: number, patch: number, prerelease: (string | number)[] = []): Version {
  return { major, minor, patch, prerelease };
}

function lower(p: Partial): Version {
  return v(p.major ?? 0, p.minor ?? 0, p.patch ?? 0, p.prerelease);
}

/** The first version above every version the partial covers (1.2 -> 1.3.0). */
function nextAfter(p: Partial): Version {
  if (p.minor === undefined) return v(p.major! + 1, 0, 0);
  if (p.patch === undefined) return v(p.major!, p.minor + 1, 0);
  return v(p.major!, p.minor, p.patch + 1);
}

function caret(p: Partial): Comparator[] {
  if (p.major === undefined) return [];
  let upper: Version;
  if (p.major > 0 || p.minor === undefined) upper = v(p.major + 1, 0, 0);
  else if (p.minor >= 0 || p.patch === undefined) upper = v(0, p.minor + 1, 0);
  else upper = v(0, 0, p.patch! + 1);
  return [{ op: ">=", version: lower(p) }, { op: "<", version: upper }];
}

function tilde(p: Partial): Comparator[] {
  if (p.major === undefined) return [];
  const upper = p.minor === undefined ? v(p.major + 1, 0, 0) : v(p.major, p.minor + 1, 0);
  return [{ op: ">=", version: lower(p) }, { op: "<", version: upper }];
}

function primitive(op: Op, p: Partial): Comparator[] {
  if (p.major === undefined) return op === "<" || op === ">" ? [{ op: "<", version: v(0, 0, 0) }] : [];
  const exact = p.patch !== undefined;
  switch (op) {
    case "=":
      return exact ? [{ op, version: lower(p) }] : [{ op: ">=", version: lower(p) }, { op: "<", version: nextAfter(p) }];
    case ">=":
    case "<":
      return [{ op, version: lower(p) }];
    case ">":
      return exact ? [{ op, version: lower(p) }] : [{ op: ">=", version: nextAfter(p) }];
    case "<=":
      return exact ? [{ op, version: lower(p) }] : [{ op: "<", version: nextAfter(p) }];
  }
}

function parseTerm(term: string): Comparator[] {
  if (term.startsWith("^")) return caret(parsePartial(term.slice(1)));
  if (term.startsWith("~")) return tilde(parsePartial(term.slice(1)));
  const m = /^(<=|>=|<|>|=)?\s*(.*)$/.exec(term)!;
  return primitive((m[1] ?? "=") as Op, parsePartial(m[2]));
}

/** Parse a range expression into comparator sets. */
export function parseRange(text: string): Range {
  return text.split("||").map((set) => {
    const terms = set.trim().replace(/(<=|>=|<|>|=)\s+/g, "$1").split(/\s+/).filter(Boolean);
    return terms.flatMap(parseTerm);
  });
}
