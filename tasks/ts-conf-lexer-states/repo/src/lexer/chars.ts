/** Character classes used by the tokenizer's transitions. */

export function isDigit(ch: string): boolean {
  return ch >= "0" && ch <= "9";
}

export function isIdentStart(ch: string): boolean {
  return (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || ch === "_";
}

export function isIdentPart(ch: string): boolean {
  return isIdentStart(ch) || isDigit(ch) || ch === "-" || ch === ".";
}

/** Spaces and tabs; newlines are tokens of their own. */
export function isBlank(ch: string): boolean {
  return ch === " " || ch === "\t" || ch === "\r";
}

/** Escape sequences allowed in strings, by the character after the backslash. */
export const ESCAPES: Record<string, string> = { n: "\n", t: "\t", '"': '"', "\\": "\\" };
