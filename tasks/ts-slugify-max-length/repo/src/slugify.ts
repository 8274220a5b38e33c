/** URL slugs from arbitrary titles. */
import { transliterate } from "./transliterate.ts";

export interface SlugOptions {
  /** Word separator, default "-". */
  separator?: string;
  /** Lower-case the result, default true. */
  lowercase?: boolean;
}

/**
 * Turn a title into a slug: transliterate to ASCII, keep letters and digits,
 * join the words with the separator.
 *
 * slugify("Crème Brûlée: 10 Tips!") === "creme-brulee-10-tips"
 */
export function slugify(text: string, options: SlugOptions = {}): string {
  const { separator = "-", lowercase = true } = options;
  const words = transliterate(text)
    .replace(/['\u2019]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const slug = words.join(separator);
  return lowercase ? slug.toLowerCase() : slug;
}
