/** Tokens of the .conf language. */

export type TokenKind =
  | "ident"
  | "string"
  | "number"
  | "bool"
  | "equals"
  | "lbrace"
  | "rbrace"
  | "lbracket"
  | "rbracket"
  | "comma"
  | "newline"
  | "eof";

/** A token; `line` and `col` are 1-based and point at its first character. */
export interface Token {
  kind: TokenKind;
  /** Source text for idents and punctuation, decoded text for strings, digits for numbers. */
  text: string;
  line: number;
  col: number;
}

/** Single-character punctuation tokens. */
export const PUNCTUATION: Record<string, TokenKind> = {
  "=": "equals",
  "{": "lbrace",
  "}": "rbrace",
  "[": "lbracket",
  "]": "rbracket",
  ",": "comma",
};
