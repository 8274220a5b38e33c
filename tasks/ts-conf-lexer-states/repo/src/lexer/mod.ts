export { ConfSyntaxError } from "./errors.ts";
export { type Token, type TokenKind } from "./token.ts";
export { tokenize } from "./tokenizer.ts";
