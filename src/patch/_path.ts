/**
 * File names in patch headers, quoted the way git quotes them: a name with a control character, a
 * double quote or a backslash is written in C style inside double quotes (`"a/x\ty"`), so that no
 * name can end a header early or start a new line.
 */

const ESCAPES: Record<string, string> = {
  "\x07": "a",
  "\b": "b",
  "\t": "t",
  "\n": "n",
  "\v": "v",
  "\f": "f",
  "\r": "r",
  '"': '"',
  "\\": "\\",
};
const UNESCAPES: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7 };

/**
 * A header name (prefix included, e.g. `b/x`), quoted only when it must be: also when it ends in
 * white space, which a reader takes for the space or tab after a name (`helper.py ` was read back
 * as `helper.py`, so grading scored another file than the workspace held).
 */
export function quotePath(name: string): string {
  // deno-lint-ignore no-control-regex
  if (!/[\x00-\x1f"\\\x7f]/.test(name) && name.trimEnd() === name) return name;
  let quoted = "";
  for (const char of name) {
    const code = char.charCodeAt(0);
    if (char in ESCAPES) quoted += `\\${ESCAPES[char]}`;
    else if (code < 0x20 || code === 0x7f) quoted += `\\${code.toString(8).padStart(3, "0")}`;
    else quoted += char;
  }
  return `"${quoted}"`;
}

/** Undo git's C-style quoting (`"a/sp\303\244ce"`); unquoted text is returned as is. */
export function unquotePath(text: string): string {
  if (!(text.length >= 2 && text.startsWith('"') && text.endsWith('"'))) return text;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char !== "\\") {
      bytes.push(...encoder.encode(char));
      continue;
    }
    const next = body[++i] ?? "";
    if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      bytes.push(parseInt(octal, 8));
      i += octal.length - 1;
    } else {
      bytes.push(UNESCAPES[next] ?? next.charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Where the quoted name at the start of `text` ends (after its closing quote). */
export function quotedEnd(text: string): number {
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}
