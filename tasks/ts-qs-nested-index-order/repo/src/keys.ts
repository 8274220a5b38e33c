/**
 * Bracket key syntax: `user[address][city]` names the path `["user", "address", "city"]`, and an
 * empty pair of brackets (`tags[]`) means "append to the array".
 */

/** One step of a key path; `""` stands for `[]` (append). */
export type Segment = string;

/** Maximum nesting depth; deeper brackets are kept as part of the last segment's text. */
export const MAX_DEPTH = 8;

/**
 * Splits a form key into its path. Text outside brackets after the first bracket is ignored the way
 * PHP and Rack do (`a[b]c` is `["a", "b"]`); an unclosed bracket makes the whole key literal.
 */
export function parseKey(key: string): Segment[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const head = key.slice(0, open);
  const segments: Segment[] = [head];
  const pattern = /\[([^\[\]]*)\]/g;
  pattern.lastIndex = open;
  let match: RegExpExecArray | null;
  let consumed = open;
  while ((match = pattern.exec(key)) !== null) {
    if (match.index !== consumed) break;
    if (segments.length > MAX_DEPTH) {
      segments[segments.length - 1] += key.slice(match.index);
      return segments;
    }
    segments.push(match[1]);
    consumed = pattern.lastIndex;
  }
  if (segments.length === 1) return [key];
  return segments;
}

/** True when a segment is an array index (`0`, `12`; not `01` or `-1`). */
export function isIndex(segment: Segment): boolean {
  return /^(0|[1-9][0-9]*)$/.test(segment);
}
