/** Public API of confy. */
export { ConfSyntaxError, tokenize } from "./lexer/mod.ts";
export { parse } from "./parser/mod.ts";
export { Config, ConfigError } from "./config/config.ts";
export { check, type Schema } from "./config/schema.ts";
