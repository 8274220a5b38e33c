/**
 * Normalization applied before comparing user input with known names.
 */

/** Options for {@linkcode normalize}. */
export interface NormalizeOptions {
  caseSensitive?: boolean;
  /** Strip combining accents (`é` to `e`); default true. */
  stripAccents?: boolean;
}

/** Trims, collapses internal whitespace, and by default lowercases and strips accents. */
export function normalize(text: string, options: NormalizeOptions = {}): string {
  let out = text.trim().replace(/\s+/g, " ");
  if (options.stripAccents ?? true) out = out.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  if (!options.caseSensitive) out = out.toLowerCase();
  return out;
}
