/** Line-level tokenizer for INI files. */

export type IniToken =
  | { type: "section"; name: string; line: number }
  | { type: "pair"; key: string; value: string; line: number };

export class IniSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(`${message} on line ${line}`);
    this.name = "IniSyntaxError";
  }
}

/** Unquote a value: "double" supports \n, \t, \" and \\ escapes; 'single' is literal. */
function unquote(raw: string, line: number): string {
  const q = raw[0];
  if (raw.length < 2 || raw[raw.length - 1] !== q) throw new IniSyntaxError("unterminated quoted value", line);
  const body = raw.slice(1, -1);
  if (q === "'") return body;
  return body.replace(/\\(.)/g, (_, c: string) => ({ n: "\n", t: "\t" } as Record<string, string>)[c] ?? c);
}

/**
 * Tokenize INI text. Blank lines and lines starting with ";" or "#" are
 * skipped; an unquoted value ends at " ;" or " #" (inline comment).
 */
export function tokenize(text: string): IniToken[] {
  const tokens: IniToken[] = [];
  text.split(/\r?\n/).forEach((rawLine, i) => {
    const line = i + 1;
    const trimmed = rawLine.trim();
    if (trimmed === "" || trimmed.startsWith(";") || trimmed.startsWith("#")) return;
    if (trimmed.startsWith("[")) {
      const m = /^\[([^\]]+)\]$/.exec(trimmed);
      if (!m) throw new IniSyntaxError("malformed section header", line);
      tokens.push({ type: "section", name: m[1].trim(), line });
      return;
    }
    const eq = trimmed.indexOf("=");
    if (eq <= 0) throw new IniSyntaxError("expected key = value", line);
    const key = trimmed.slice(0, eq).trim();
    let value = trimmed.slice(eq + 1).trim();
    if (value.startsWith('"') || value.startsWith("'")) {
      value = unquote(value, line);
    } else {
      value = value.replace(/\s+[;#].*$/, "");
    }
    tokens.push({ type: "pair", key, value, line });
  });
  return tokens;
}
