/**
 * JSON Pointer (RFC 6901): "/a/b/0" addresses doc.a.b[0]. Within a reference token,
 * "~" is written "~0" and "/" is written "~1".
 */
import { PatchError } from "./errors.ts";
import { isObject, type Json } from "./json.ts";

/** Escapes one reference token for use in a pointer ("a/b" -> "a~1b"). */
export function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Reverses {@linkcode escapeToken} ("a~1b" -> "a/b", "m~0n" -> "m~n"). */
export function unescapeToken(token: string): string {
  return token.replaceAll("~0", "~").replaceAll("~1", "/");
}

/** Splits a pointer into its unescaped reference tokens; "" is the whole document. */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) {
    throw new PatchError("invalid_pointer", `pointer "${pointer}" must start with "/"`);
  }
  const raw = pointer.slice(1).split("/");
  for (const token of raw) {
    if (/~(?![01])/.test(token)) {
      throw new PatchError("invalid_pointer", `bad escape in token "${token}" of "${pointer}"`);
    }
  }
  return raw.map(unescapeToken);
}

/** Builds a pointer from reference tokens (the inverse of {@linkcode parsePointer}). */
export function formatPointer(tokens: readonly string[]): string {
  return tokens.map((t) => "/" + escapeToken(t)).join("");
}

/**
 * Parses an array index token. "-" (past the end) is allowed only when `allowEnd` is set;
 * leading zeros are rejected as the RFC requires.
 */
export function parseIndex(token: string, length: number, allowEnd: boolean): number {
  if (token === "-" && allowEnd) return length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PatchError("invalid_index", `"${token}" is not an array index`);
  }
  const index = Number(token);
  const max = allowEnd ? length : length - 1;
  if (index > max) {
    throw new PatchError("invalid_index", `index ${index} is out of bounds (length ${length})`);
  }
  return index;
}

/** The value at `pointer` in `doc`; throws `path_not_found` when any step is missing. */
export function getAt(doc: Json, pointer: string): Json {
  let current: Json = doc;
  for (const token of parsePointer(pointer)) {
    if (Array.isArray(current)) {
      current = current[parseIndex(token, current.length, false)];
    } else if (isObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      throw new PatchError("path_not_found", `no value at "${pointer}"`);
    }
  }
  return current;
}

/** True when `pointer` resolves to a value in `doc`. */
export function has(doc: Json, pointer: string): boolean {
  try {
    getAt(doc, pointer);
    return true;
  } catch (e) {
    if (e instanceof PatchError) return false;
    throw e;
  }
}
