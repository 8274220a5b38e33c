/**
 * Cardinal plural categories ("1 file", "2 files") from the CLDR plural rules, for the locales we
 * ship. Only integer operands are handled; fractional counts fall back to `other`.
 */

/** A CLDR plural category. */
export type PluralCategory = "zero" | "one" | "two" | "few" | "many" | "other";

/** Picks the category of a number. */
export type PluralRule = (n: number) => PluralCategory;

const english: PluralRule = (n) => (n === 1 ? "one" : "other");

/** Cardinal rules by base language. */
export const CARDINAL_RULES: Record<string, PluralRule> = {
  en: english,
  de: english,
  fr: (n) => (n === 0 || n === 1 ? "one" : "other"),
  pl: (n) => {
    if (!Number.isInteger(n)) return "other";
    if (n === 1) return "one";
    const ten = n % 10, hundred = n % 100;
    if (ten >= 2 && ten <= 4 && !(hundred >= 12 && hundred <= 14)) return "few";
    return "many";
  },
  ja: () => "other",
};

/** The cardinal category of `n` in `locale` (`en-GB` uses `en`); unknown locales get `other`. */
export function cardinalCategory(locale: string, n: number): PluralCategory {
  const rule = CARDINAL_RULES[baseLanguage(locale)];
  return rule ? rule(n) : "other";
}

/** `"pt-BR"` to `"pt"`. */
export function baseLanguage(locale: string): string {
  return locale.toLowerCase().split(/[-_]/)[0];
}
