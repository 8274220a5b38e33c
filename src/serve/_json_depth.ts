/**
 * A linear pre-scan of a request line, before `JSON.parse`: how deep its arrays and objects nest
 * (a 200,000-deep line parses, then overflows the stack wherever it is walked recursively) and,
 * for error answers, its top-level "id" when that is a plain string or number.
 */

/** What the scan found. */
export interface LineScan {
  /** Whether nesting went past the limit (the scan stops there). */
  tooDeep: boolean;
  /** The top-level "id", if one was read before the scan stopped. */
  id?: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Scan `text` (JSON or not) for nesting deeper than `maxDepth` and for its top-level "id". */
export function scanLine(text: string, maxDepth: number): LineScan {
  let depth = 0;
  let id: string | number | undefined;
  let lastKey: string | null = null;
  let valueStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (depth === 1) {
        if (valueStart !== -1 && lastKey === "id") {
          id = parseScalar(text.slice(start, i + 1), "string") ?? undefined;
          valueStart = -1;
        } else if (valueStart === -1) {
          lastKey = parseScalar(text.slice(start, i + 1), "string") as string | null;
        }
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) { // { [
      if (++depth > maxDepth) return { tooDeep: true, ...(id === undefined ? {} : { id }) };
      if (depth === 2) valueStart = -1;
    } else if (depth === 1 && c === 0x3a) { // :
      valueStart = i + 1;
    } else if (c === 0x7d || c === 0x5d || (depth === 1 && c === 0x2c)) { // } ] ,
      if (depth === 1 && valueStart !== -1 && lastKey === "id") {
        const value = parseScalar(text.slice(valueStart, i).trim(), "number");
        if (value !== null) id = value;
      }
      if (c !== 0x2c) depth--;
      valueStart = -1;
      lastKey = null;
    }
  }
  return { tooDeep: false, ...(id === undefined ? {} : { id }) };
}

function parseScalar(raw: string, kind: "string" | "number"): string | number | null {
  try {
    const value = JSON.parse(raw);
    if (kind === "string") return typeof value === "string" ? value : null;
    return typeof value === "number" ? value : null;
  } catch {
    return null;
  }
}
