/**
 * Percent-encoding helpers for `application/x-www-form-urlencoded` bodies.
 *
 * Browsers encode spaces in form bodies as `+`, so decoding turns `+` back into a space before
 * percent-decoding. Malformed escapes (`%zz`) are kept literally instead of throwing, which is what
 * most servers do with hand-written query strings.
 */

/** Encodes one key or value; spaces become `+`. */
export function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, "+");
}

/** Decodes one key or value; `+` is a space and malformed escapes are kept as written. */
export function decodeComponent(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
