/**
 * The tokenizer, written as an explicit finite-state machine: one character is consumed per
 * step and the current state decides what it means. Number states follow the grammar
 *
 *   number   = [sign] digits ["." digits] [("e" | "E") [sign] digits]
 */
import { ESCAPES, isBlank, isDigit, isIdentPart, isIdentStart } from "./chars.ts";
import { ConfSyntaxError } from "./errors.ts";
import { PUNCTUATION, type Token, type TokenKind } from "./token.ts";

type State =
  | "start"
  | "ident"
  | "string"
  | "escape"
  | "comment"
  | "sign"
  | "integer"
  | "dot"
  | "fraction"
  | "exponentMark"
  | "exponentSign"
  | "exponent";

/** States in which a number may end. */
const NUMBER_ACCEPTING: ReadonlySet<State> = new Set(["integer", "fraction", "exponent"]);

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let state: State = "start";
  let text = "";
  let startLine = 1;
  let startCol = 1;
  let line = 1;
  let col = 1;

  const emit = (kind: TokenKind, value = text) => {
    tokens.push({ kind, text: value, line: startLine, col: startCol });
    text = "";
    state = "start";
  };
  const begin = (next: State, ch = "") => {
    state = next;
    text = ch;
    startLine = line;
    startCol = col;
  };
  const fail = (reason: string): never => {
    throw new ConfSyntaxError(reason, line, col);
  };

  // One extra "\n" flushes the last token; it is not part of the source.
  const input = source.endsWith("\n") ? source : source + "\n";
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    let reconsume = true;
    while (reconsume) {
      reconsume = false;
      switch (state as State) {
        case "start":
          if (isBlank(ch)) break;
          if (ch === "\n") {
            begin("start");
            if (i < source.length) emit("newline", "\n");
          } else if (ch === "#") state = "comment";
          else if (ch === '"') begin("string");
          else if (ch === "-" || ch === "+") begin("sign", ch);
          else if (isDigit(ch)) begin("integer", ch);
          else if (isIdentStart(ch)) begin("ident", ch);
          else if (PUNCTUATION[ch]) {
            begin("start", ch);
            emit(PUNCTUATION[ch]);
          } else fail(`unexpected character "${ch}"`);
          break;
        case "comment":
          if (ch === "\n") state = "start";
          break;
        case "ident":
          if (isIdentPart(ch)) text += ch;
          else {
            emit(text === "true" || text === "false" ? "bool" : "ident");
            reconsume = true;
          }
          break;
        case "string":
          if (ch === '"') emit("string");
          else if (ch === "\\") state = "escape";
          else if (ch === "\n") fail("unterminated string");
          else text += ch;
          break;
        case "escape":
          if (!(ch in ESCAPES)) fail(`unknown escape "\\${ch}"`);
          text += ESCAPES[ch];
          state = "string";
          break;
        case "sign":
          if (!isDigit(ch)) fail(`expected a digit after "${text}"`);
          text += ch;
          state = "integer";
          break;
        case "integer":
          if (isDigit(ch)) text += ch;
          else if (ch === ".") {
            text += ch;
            state = "dot";
          } else if (ch === "e" || ch === "E") {
            text += ch;
            state = "exponentMark";
          } else {
            emit("number");
            reconsume = true;
          }
          break;
        case "dot":
          if (!isDigit(ch)) fail('expected a digit after "."');
          text += ch;
          state = "fraction";
          break;
        case "fraction":
          if (isDigit(ch)) text += ch;
          else {
            emit("number");
            reconsume = true;
          }
          break;
        case "exponentMark":
          if (ch === "+" || ch === "-") {
            text += ch;
            state = "exponentSign";
          } else if (isDigit(ch)) {
            text += ch;
            state = "exponent";
          } else fail("expected digits in the exponent");
          break;
        case "exponentSign":
          if (!isDigit(ch)) fail("expected digits in the exponent");
          text += ch;
          state = "exponent";
          break;
        case "exponent":
          if (isDigit(ch)) text += ch;
          else {
            emit("number");
            reconsume = true;
          }
          break;
      }
    }
    if (ch === "\n") {
      line += 1;
      col = 1;
    } else {
      col += 1;
    }
  }
  if (state !== "start" && !NUMBER_ACCEPTING.has(state)) fail("unexpected end of input");
  tokens.push({ kind: "eof", text: "", line, col });
  return tokens;
}
