/**
 * Recursive-descent parser. Precedence, loosest first: OR, AND, NOT, then comparisons
 * (`=`, `<>`, `<`, `<=`, `>`, `>=`, `IN`, `LIKE`, `BETWEEN`, `IS [NOT] NULL`), then atoms.
 */
import type { Expr } from "./ast.ts";
import { FilterSyntaxError, type Token, tokenize } from "./lexer.ts";

/** Parses a filter expression. */
export function parseFilter(source: string): Expr {
  const parser = new Parser(tokenize(source));
  const expr = parser.expression();
  parser.expectEnd();
  return expr;
}

class Parser {
  #i = 0;
  constructor(readonly tokens: Token[]) {}

  expression(): Expr {
    let left = this.not();
    while (this.keyword("AND") || this.keyword("OR")) {
      const op = this.next().value === "AND" ? "and" : "or";
      left = { type: op, left, right: this.not() };
    }
    return left;
  }

  not(): Expr {
    if (this.keyword("NOT")) {
      this.next();
      return { type: "not", operand: this.not() };
    }
    return this.comparison();
  }

  comparison(): Expr {
    const left = this.atom();
    const token = this.peek();
    if (token.kind === "op") {
      this.next();
      return { type: "compare", op: token.value as "=", left, right: this.atom() };
    }
    let negated = false;
    if (this.keyword("NOT")) {
      this.next();
      negated = true;
    }
    let expr: Expr | null = null;
    if (this.keyword("IN")) {
      this.next();
      this.expect("lparen");
      const options = [this.atom()];
      while (this.peek().kind === "comma") {
        this.next();
        options.push(this.atom());
      }
      this.expect("rparen");
      expr = { type: "in", operand: left, options };
    } else if (this.keyword("LIKE")) {
      this.next();
      const pattern = this.expect("string").value;
      expr = { type: "like", operand: left, pattern };
    } else if (this.keyword("BETWEEN")) {
      this.next();
      const low = this.atom();
      if (!this.keyword("AND")) throw new FilterSyntaxError("expected AND in BETWEEN", this.peek().pos);
      this.next();
      expr = { type: "between", operand: left, low, high: this.atom() };
    } else if (!negated && this.keyword("IS")) {
      this.next();
      let not = false;
      if (this.keyword("NOT")) {
        this.next();
        not = true;
      }
      if (!this.keyword("NULL")) throw new FilterSyntaxError("expected NULL", this.peek().pos);
      this.next();
      return { type: "isNull", operand: left, negated: not };
    }
    if (expr) return negated ? { type: "not", operand: expr } : expr;
    if (negated) throw new FilterSyntaxError("expected IN, LIKE or BETWEEN after NOT", this.peek().pos);
    return left;
  }

  atom(): Expr {
    const token = this.next();
    switch (token.kind) {
      case "number":
        return { type: "literal", value: Number(token.value) };
      case "string":
        return { type: "literal", value: token.value };
      case "ident":
        return { type: "field", path: token.value.split(".") };
      case "lparen": {
        const inner = this.expression();
        this.expect("rparen");
        return inner;
      }
      case "keyword":
        if (token.value === "NULL") return { type: "literal", value: null };
        if (token.value === "TRUE" || token.value === "FALSE") return { type: "literal", value: token.value === "TRUE" };
    }
    throw new FilterSyntaxError(`unexpected ${token.kind === "eof" ? "end of input" : `'${token.value}'`}`, token.pos);
  }

  peek(): Token {
    return this.tokens[this.#i];
  }

  next(): Token {
    const token = this.tokens[this.#i];
    if (token.kind !== "eof") this.#i++;
    return token;
  }

  keyword(word: string): boolean {
    const token = this.peek();
    return token.kind === "keyword" && token.value === word;
  }

  expect(kind: Token["kind"]): Token {
    const token = this.peek();
    if (token.kind !== kind) throw new FilterSyntaxError(`expected ${kind}`, token.pos);
    return this.next();
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== "eof") throw new FilterSyntaxError(`unexpected '${token.value}'`, token.pos);
  }
}
