/**
 * polyglot: ICU-style message formatting with plural rules and a fallback catalog.
 *
 * ```ts
 * const catalog = new Catalog({ en: { files: "{n, plural, one {# file} other {# files}}" } });
 * catalog.t("en", "files", { n: 3 }); // "3 files"
 * ```
 */
export type { Branches, Message, Part } from "./format/ast.ts";
export { MessageSyntaxError, parseMessage } from "./format/parse.ts";
export { formatMessage, MissingValueError } from "./format/format.ts";
export type { Values } from "./format/format.ts";
export * from "./plurals/mod.ts";
export { Catalog } from "./catalog.ts";
export type { Messages } from "./catalog.ts";

import { formatMessage, type Values } from "./format/format.ts";
import { parseMessage } from "./format/parse.ts";

/** Parses and formats in one go. */
export function format(source: string, values: Values = {}, locale = "en"): string {
  return formatMessage(parseMessage(source), values, locale);
}
