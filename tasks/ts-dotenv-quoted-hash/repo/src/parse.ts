/**
 * Parser for .env files.
 *
 *   # comment
 *   export NAME=value        # "export " prefix is allowed
 *   GREETING="hi\nthere"     # double quotes: \n, \t, \" and \\ escapes
 *   RAW='no $expansion'      # single quotes: literal, never expanded
 *   URL=http://x/#anchor     # unquoted: " #" starts a comment, "#" alone does not
 */

export interface EnvEntry {
  key: string;
  value: string;
  /** Whether `${VAR}` references in the value should be expanded. */
  expand: boolean;
  line: number;
}

export class EnvSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(`${message} (line ${line})`);
    this.name = "EnvSyntaxError";
  }
}

const KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\" };

/** Remove a trailing " # comment" from an unquoted value. */
function stripInlineComment(raw: string): string {
  return raw.replace(/\s+#.*$/, "").trim();
}

function parseQuoted(raw: string, line: number): { value: string; rest: string } {
  const quote = raw[0];
  let value = "";
  for (let i = 1; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === quote) return { value, rest: raw.slice(i + 1).trim() };
    if (ch === "\\" && quote === '"' && i + 1 < raw.length) {
      const next = raw[++i];
      value += ESCAPES[next] ?? "\\" + next;
    } else {
      value += ch;
    }
  }
  throw new EnvSyntaxError("unterminated quoted value", line);
}

export function parseEnv(text: string): EnvEntry[] {
  const entries: EnvEntry[] = [];
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const line = index + 1;
    let body = rawLine.trim();
    if (body === "" || body.startsWith("#")) return;
    if (body.startsWith("export ")) body = body.slice(7).trimStart();
    const eq = body.indexOf("=");
    if (eq < 0) throw new EnvSyntaxError("expected KEY=value", line);
    const key = body.slice(0, eq).trim();
    if (!KEY_RE.test(key)) throw new EnvSyntaxError(`invalid key ${JSON.stringify(key)}`, line);
    const raw = stripInlineComment(body.slice(eq + 1).trim());
    if (raw.startsWith('"') || raw.startsWith("'")) {
      const { value, rest } = parseQuoted(raw, line);
      if (rest !== "" && !rest.startsWith("#")) throw new EnvSyntaxError("unexpected text after closing quote", line);
      entries.push({ key, value, expand: raw[0] === '"', line });
    } else {
      entries.push({ key, value: raw, expand: true, line });
    }
  });
  return entries;
}
