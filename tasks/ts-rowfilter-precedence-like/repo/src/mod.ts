/**
 * rowfilter: SQL-like WHERE expressions over arrays of objects.
 */
export type { Expr, Literal } from "./ast.ts";
export { FilterSyntaxError, tokenize } from "./lexer.ts";
export type { Token, TokenKind } from "./lexer.ts";
export { parseFilter } from "./parser.ts";
export { like, likeToRegExp } from "./like.ts";
export { evaluate } from "./evaluate.ts";
export type { Row } from "./evaluate.ts";
export { from, Query, where } from "./query.ts";
