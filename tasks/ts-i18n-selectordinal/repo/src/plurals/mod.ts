/** Plural rules. */
export { baseLanguage, CARDINAL_RULES, cardinalCategory } from "./cardinal.ts";
export type { PluralCategory, PluralRule } from "./cardinal.ts";
