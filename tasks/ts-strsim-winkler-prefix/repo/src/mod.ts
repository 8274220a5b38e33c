/**
 * strsim: string similarity measures and "did you mean" suggestions.
 */
export { levenshtein, levenshteinSimilarity, osaDistance } from "./levenshtein.ts";
export { BOOST_THRESHOLD, jaro, jaroWinkler, MAX_PREFIX, PREFIX_SCALE } from "./jaro.ts";
export { normalize } from "./normalize.ts";
export type { NormalizeOptions } from "./normalize.ts";
export { suggest } from "./suggest.ts";
export type { Metric, SuggestOptions, Suggestion } from "./suggest.ts";
