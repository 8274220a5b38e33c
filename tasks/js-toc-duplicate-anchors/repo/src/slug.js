/**
 * The anchor GitHub gives a heading's text: lowercase, punctuation removed (letters, digits,
 * spaces, hyphens and underscores kept), spaces turned into hyphens.
 */
export function slug(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/<[^>]*>/g, "")
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}
