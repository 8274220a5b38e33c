/**
 * Tokenizer for filter expressions such as
 * `age >= 30 AND (city = 'Paris' OR city IN ('Lyon', 'Nice')) AND NOT name LIKE 'A%'`.
 *
 * Keywords are case-insensitive; strings use single quotes with `''` as an escaped quote.
 */

/** Token kinds. */
export type TokenKind = "ident" | "number" | "string" | "op" | "keyword" | "lparen" | "rparen" | "comma" | "eof";

/** One token with its source offset. */
export interface Token {
  kind: TokenKind;
  value: string;
  pos: number;
}

/** Reserved words (upper-cased in tokens). */
export const KEYWORDS = new Set(["AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL", "TRUE", "FALSE", "BETWEEN"]);

/** A lexing or parsing error with the offset it refers to. */
export class FilterSyntaxError extends Error {
  constructor(message: string, readonly pos: number) {
    super(`${message} at ${pos}`);
    this.name = "FilterSyntaxError";
  }
}

/** Splits an expression into tokens, ending with `eof`. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      tokens.push({ kind: c === "(" ? "lparen" : c === ")" ? "rparen" : "comma", value: c, pos: i });
      i++;
    } else if (c === "'") {
      const start = i;
      let value = "";
      i++;
      for (;;) {
        if (i >= source.length) throw new FilterSyntaxError("unterminated string", start);
        if (source[i] === "'" && source[i + 1] === "'") {
          value += "'";
          i += 2;
        } else if (source[i] === "'") {
          i++;
          break;
        } else value += source[i++];
      }
      tokens.push({ kind: "string", value, pos: start });
    } else if (/[0-9]/.test(c) || (c === "-" && /[0-9]/.test(source[i + 1] ?? ""))) {
      const match = /^-?\d+(\.\d+)?/.exec(source.slice(i))!;
      tokens.push({ kind: "number", value: match[0], pos: i });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(source.slice(i))!;
      const upper = match[0].toUpperCase();
      tokens.push(KEYWORDS.has(upper) ? { kind: "keyword", value: upper, pos: i } : { kind: "ident", value: match[0], pos: i });
      i += match[0].length;
    } else {
      const match = /^(<=|>=|<>|!=|=|<|>)/.exec(source.slice(i));
      if (!match) throw new FilterSyntaxError(`unexpected character '${c}'`, i);
      tokens.push({ kind: "op", value: match[0] === "!=" ? "<>" : match[0], pos: i });
      i += match[0].length;
    }
  }
  tokens.push({ kind: "eof", value: "", pos: source.length });
  return tokens;
}
