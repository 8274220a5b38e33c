/**
 * formkit: a small query-string and form-body codec with nested bracket keys.
 *
 * ```ts
 * parse("user[name]=Ada&user[langs][]=en&user[langs][]=fr");
 * // { user: { name: "Ada", langs: ["en", "fr"] } }
 * ```
 */
export { parse } from "./decode.ts";
export type { FormObject, FormValue } from "./decode.ts";
export { stringify } from "./encode.ts";
export type { ArrayFormat, StringifyOptions } from "./encode.ts";
export { decodeComponent, encodeComponent } from "./escape.ts";
export { isIndex, MAX_DEPTH, parseKey } from "./keys.ts";
