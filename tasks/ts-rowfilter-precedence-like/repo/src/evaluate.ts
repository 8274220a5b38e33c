/**
 * Evaluating filters against plain objects. Comparisons follow SQL's spirit in a simplified,
 * two-valued way: any comparison involving `null`/`undefined` is false (use `IS NULL`), and
 * `NOT` of such a comparison is true.
 */
import type { Expr, Literal } from "./ast.ts";
import { like } from "./like.ts";

/** A row: any JSON-like object. */
export type Row = Record<string, unknown>;

/** Evaluates `expr` to a value (for operands) or a boolean (for conditions). */
export function evaluate(expr: Expr, row: Row): unknown {
  switch (expr.type) {
    case "literal":
      return expr.value;
    case "field":
      return expr.path.reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Row)[key] : undefined), row);
    case "and":
      return truthy(evaluate(expr.left, row)) && truthy(evaluate(expr.right, row));
    case "or":
      return truthy(evaluate(expr.left, row)) || truthy(evaluate(expr.right, row));
    case "not":
      return !truthy(evaluate(expr.operand, row));
    case "compare":
      return compare(expr.op, evaluate(expr.left, row), evaluate(expr.right, row));
    case "in": {
      const value = evaluate(expr.operand, row);
      return expr.options.some((option) => compare("=", value, evaluate(option, row)));
    }
    case "like": {
      const value = evaluate(expr.operand, row);
      return typeof value === "string" && like(value, expr.pattern);
    }
    case "between": {
      const value = evaluate(expr.operand, row);
      return compare(">=", value, evaluate(expr.low, row)) && compare("<=", value, evaluate(expr.high, row));
    }
    case "isNull": {
      const value = evaluate(expr.operand, row);
      return (value === null || value === undefined) !== expr.negated;
    }
  }
}

function truthy(value: unknown): boolean {
  return value === true;
}

function compare(op: string, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (typeof a !== typeof b) return false;
  const x = a as Literal & (string | number | boolean), y = b as typeof x;
  switch (op) {
    case "=":
      return x === y;
    case "<>":
      return x !== y;
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
  }
  return false;
}
