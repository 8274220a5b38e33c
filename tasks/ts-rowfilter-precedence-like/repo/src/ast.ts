/**
 * Expression tree of a filter.
 */

/** A literal value. */
export type Literal = string | number | boolean | null;

/** A filter expression. */
export type Expr =
  | { type: "literal"; value: Literal }
  | { type: "field"; path: string[] }
  | { type: "compare"; op: "=" | "<>" | "<" | "<=" | ">" | ">="; left: Expr; right: Expr }
  | { type: "and" | "or"; left: Expr; right: Expr }
  | { type: "not"; operand: Expr }
  | { type: "in"; operand: Expr; options: Expr[] }
  | { type: "like"; operand: Expr; pattern: string }
  | { type: "between"; operand: Expr; low: Expr; high: Expr }
  | { type: "isNull"; operand: Expr; negated: boolean };
