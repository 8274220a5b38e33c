/**
 * Route patterns: "/users/:id/files/*rest".
 *
 * - literal segments match exactly,
 * - ":name" matches one segment and captures it,
 * - "*name" (last segment only) captures the remaining segments joined by "/".
 */
import { pathSegments } from "./path.ts";

type Part =
  | { kind: "literal"; value: string }
  | { kind: "param"; name: string }
  | { kind: "rest"; name: string };

export interface CompiledPattern {
  source: string;
  parts: Part[];
  /** Higher is more specific; used to order candidate routes. */
  score: number;
}

export function compilePattern(source: string): CompiledPattern {
  const parts: Part[] = pathSegments(source === "" ? "/" : source).map((seg, i, all) => {
    if (seg.startsWith(":")) return { kind: "param", name: seg.slice(1) };
    if (seg.startsWith("*")) {
      if (i !== all.length - 1) throw new SyntaxError(`wildcard must be last in ${source}`);
      return { kind: "rest", name: seg.slice(1) || "rest" };
    }
    return { kind: "literal", value: seg };
  });
  const score = parts.reduce(
    (acc, p) => acc + (p.kind === "literal" ? 3 : p.kind === "param" ? 2 : 0),
    0,
  );
  return { source, parts, score };
}

/** Match decoded segments against a pattern; returns captured params or null. */
export function matchPattern(pattern: CompiledPattern, segments: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.parts.length; i++) {
    const part = pattern.parts[i];
    if (part.kind === "rest") {
      params[part.name] = segments.slice(i).join("/");
      return params;
    }
    const seg = segments[i];
    if (seg === undefined) return null;
    if (part.kind === "literal" && part.value !== seg) return null;
    if (part.kind === "param") params[part.name] = seg;
  }
  return segments.length === pattern.parts.length ? params : null;
}
