/**
 * A small arithmetic expression calculator.
 *
 *   calculate("2 * (x + 1) ^ 2", { x: 2 }) === 18
 *
 * Supports + - * / % ^ (right-associative, binds tighter than unary minus:
 * -2^2 === -4), parentheses, variables, the constants `pi` and `e`, and the
 * functions sqrt, abs, floor, ceil, round, min, max and pow.
 */

/** Error with the 0-based source position it refers to (-1 when unknown). */
export class CalcError extends Error {
  constructor(message: string, readonly pos = -1) {
    super(pos >= 0 ? `${message} at position ${pos}` : message);
    this.name = "CalcError";
  }
}

// ---------------------------------------------------------------- tokens

type TokenKind = "number" | "ident" | "op" | "lparen" | "rparen" | "comma" | "eof";

interface Token {
  kind: TokenKind;
  text: string;
  pos: number;
}

const NUMBER_RE = /\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?/y;
const IDENT_RE = /[A-Za-z_][A-Za-z0-9_]*/y;
const SINGLE: Record<string, TokenKind> = {
  "+": "op", "-": "op", "*": "op", "/": "op", "%": "op", "^": "op",
  "(": "lparen", ")": "rparen", ",": "comma",
};

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < source.length) {
    const ch = source[pos];
    if (/\s/.test(ch)) {
      pos++;
      continue;
    }
    if (SINGLE[ch]) {
      tokens.push({ kind: SINGLE[ch], text: ch, pos });
      pos++;
      continue;
    }
    let matched = false;
    for (const [re, kind] of [[NUMBER_RE, "number"], [IDENT_RE, "ident"]] as const) {
      re.lastIndex = pos;
      const m = re.exec(source);
      if (m) {
        tokens.push({ kind, text: m[0], pos });
        pos += m[0].length;
        matched = true;
        break;
      }
    }
    if (!matched) throw new CalcError(`unexpected character ${JSON.stringify(ch)}`, pos);
  }
  tokens.push({ kind: "eof", text: "", pos: source.length });
  return tokens;
}

// ---------------------------------------------------------------- parser

type BinaryOp = "+" | "-" | "*" | "/" | "%" | "^";

type Node =
  | { type: "num"; value: number }
  | { type: "var"; name: string }
  | { type: "unary"; op: "+" | "-"; arg: Node }
  | { type: "binary"; op: BinaryOp; left: Node; right: Node }
  | { type: "call"; name: string; args: Node[] };

function parse(source: string): Node {
  const tokens = tokenize(source);
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const expect = (kind: TokenKind, what: string) => {
    const t = next();
    if (t.kind !== kind) throw new CalcError(`expected ${what}`, t.pos);
    return t;
  };
  const isOp = (...ops: string[]) => peek().kind === "op" && ops.includes(peek().text);

  function expr(): Node {
    let left = term();
    while (isOp("+", "-")) {
      const op = next().text as BinaryOp;
      left = { type: "binary", op, left, right: term() };
    }
    return left;
  }
  function term(): Node {
    let left = unary();
    while (isOp("*", "/", "%")) {
      const op = next().text as BinaryOp;
      left = { type: "binary", op, left, right: unary() };
    }
    return left;
  }
  function unary(): Node {
    if (isOp("+", "-")) {
      const op = next().text as "+" | "-";
      return { type: "unary", op, arg: unary() };
    }
    return power();
  }
  function power(): Node {
    const base = primary();
    if (isOp("^")) {
      next();
      return { type: "binary", op: "^", left: base, right: unary() };
    }
    return base;
  }
  function primary(): Node {
    const t = next();
    if (t.kind === "number") return { type: "num", value: Number(t.text) };
    if (t.kind === "lparen") {
      const inner = expr();
      expect("rparen", '")"');
      return inner;
    }
    if (t.kind === "ident") {
      if (peek().kind !== "lparen") return { type: "var", name: t.text };
      next();
      const args: Node[] = [];
      if (peek().kind !== "rparen") {
        do args.push(expr());
        while (peek().kind === "comma" && next());
      }
      expect("rparen", '")"');
      return { type: "call", name: t.text, args };
    }
    throw new CalcError(t.kind === "eof" ? "unexpected end of input" : `unexpected ${JSON.stringify(t.text)}`, t.pos);
  }

  const tree = expr();
  if (peek().kind !== "eof") throw new CalcError(`unexpected ${JSON.stringify(peek().text)}`, peek().pos);
  return tree;
}

// ---------------------------------------------------------------- evaluation

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

const FUNCTIONS: Record<string, { arity: number | "variadic"; fn: (...a: number[]) => number }> = {
  sqrt: { arity: 1, fn: Math.sqrt },
  abs: { arity: 1, fn: Math.abs },
  floor: { arity: 1, fn: Math.floor },
  ceil: { arity: 1, fn: Math.ceil },
  round: { arity: 1, fn: Math.round },
  pow: { arity: 2, fn: Math.pow },
  min: { arity: "variadic", fn: Math.min },
  max: { arity: "variadic", fn: Math.max },
};

function evaluate(node: Node, vars: Record<string, number>): number {
  switch (node.type) {
    case "num":
      return node.value;
    case "var": {
      const value = Object.hasOwn(vars, node.name) ? vars[node.name] : CONSTANTS[node.name];
      if (value === undefined) throw new CalcError(`unknown variable ${node.name}`);
      return value;
    }
    case "unary": {
      const v = evaluate(node.arg, vars);
      return node.op === "-" ? -v : v;
    }
    case "binary": {
      const l = evaluate(node.left, vars);
      const r = evaluate(node.right, vars);
      switch (node.op) {
        case "+": return l + r;
        case "-": return l - r;
        case "*": return l * r;
        case "/":
        case "%":
          if (r === 0) throw new CalcError("division by zero");
          return node.op === "/" ? l / r : l % r;
        case "^": return l ** r;
      }
      break;
    }
    case "call": {
      const f = FUNCTIONS[node.name];
      if (!f) throw new CalcError(`unknown function ${node.name}`);
      if (f.arity === "variadic" ? node.args.length === 0 : node.args.length !== f.arity) {
        throw new CalcError(`wrong number of arguments for ${node.name}`);
      }
      return f.fn(...node.args.map((a) => evaluate(a, vars)));
    }
  }
  throw new CalcError("invalid expression");
}

/** Evaluate an expression with optional variables. */
export function calculate(source: string, vars: Record<string, number> = {}): number {
  return evaluate(parse(source), vars);
}
