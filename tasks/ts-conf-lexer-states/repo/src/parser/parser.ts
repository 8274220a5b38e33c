/**
 * Recursive-descent parser:
 *
 *   file   = { entry | newline } eof
 *   entry  = ident ( "=" value | "{" { entry | newline } "}" ) (newline | "}" | eof)
 *   value  = string | number | bool | array
 *   array  = "[" [ value { "," value } [ "," ] ] "]"      (newlines allowed inside)
 *
 * Duplicate keys in one block are errors.
 */
import { ConfSyntaxError, type Token, type TokenKind, tokenize } from "../lexer/mod.ts";
import type { ConfBlock, ConfValue } from "./values.ts";

class Parser {
  #pos = 0;

  constructor(private readonly tokens: Token[]) {}

  get #current(): Token {
    return this.tokens[this.#pos];
  }

  /** True when the current token is of `kind`. */
  #at(kind: TokenKind): boolean {
    return this.#current.kind === kind;
  }

  #next(): Token {
    return this.tokens[this.#pos++];
  }

  #expect(kind: TokenKind, what: string): Token {
    const token = this.#current;
    if (token.kind !== kind) this.#error(`expected ${what}`, token);
    return this.#next();
  }

  #error(reason: string, token = this.#current): never {
    const found = token.kind === "eof" ? "end of input" : `"${token.text}"`;
    throw new ConfSyntaxError(`${reason}, found ${found}`, token.line, token.col);
  }

  #skipNewlines(): void {
    while (this.#at("newline")) this.#next();
  }

  parseFile(): ConfBlock {
    return this.#entries("eof");
  }

  #entries(end: "eof" | "rbrace"): ConfBlock {
    const block: ConfBlock = {};
    this.#skipNewlines();
    while (!this.#at(end)) {
      const key = this.#expect("ident", "a key");
      if (Object.hasOwn(block, key.text)) {
        throw new ConfSyntaxError(`duplicate key "${key.text}"`, key.line, key.col);
      }
      if (this.#at("lbrace")) {
        this.#next();
        block[key.text] = this.#entries("rbrace");
        this.#expect("rbrace", '"}"');
      } else {
        this.#expect("equals", '"=" or "{"');
        block[key.text] = this.#value();
      }
      if (!this.#at("newline") && !this.#at(end)) this.#error("expected a line break");
      this.#skipNewlines();
    }
    return block;
  }

  #value(): ConfValue {
    const token = this.#next();
    switch (token.kind) {
      case "string":
        return token.text;
      case "number":
        return Number(token.text);
      case "bool":
        return token.text === "true";
      case "lbracket":
        return this.#array();
      default:
        return this.#error("expected a value", token);
    }
  }

  #array(): ConfValue[] {
    const items: ConfValue[] = [];
    this.#skipNewlines();
    while (!this.#at("rbracket")) {
      items.push(this.#value());
      this.#skipNewlines();
      if (!this.#at("comma")) break;
      this.#next();
      this.#skipNewlines();
      if (this.#at("rbracket")) this.#error("expected a value");
    }
    this.#expect("rbracket", '"]"');
    return items;
  }
}

/** Parses .conf source into nested plain objects. */
export function parse(source: string): ConfBlock {
  return new Parser(tokenize(source)).parseFile();
}
