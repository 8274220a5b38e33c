/** Normalizing search terms so that "Café" and "cafe" find the same entries. */

/** Lowercases, strips diacritics and collapses whitespace. */
export function normalizeTerm(term: string): string {
  return term
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, " ");
}
