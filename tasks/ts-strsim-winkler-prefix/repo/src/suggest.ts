/**
 * "Did you mean ...?" suggestions for CLI commands and search boxes.
 */
import { jaroWinkler } from "./jaro.ts";
import { levenshteinSimilarity } from "./levenshtein.ts";
import { normalize, type NormalizeOptions } from "./normalize.ts";

/** A scored candidate. */
export interface Suggestion {
  value: string;
  score: number;
}

/** Which similarity to rank by. */
export type Metric = "jaro-winkler" | "levenshtein";

/** Options for {@linkcode suggest}. */
export interface SuggestOptions extends NormalizeOptions {
  metric?: Metric;
  /** Minimum score to be suggested; default 0.8. */
  threshold?: number;
  /** Maximum number of suggestions; default 3. */
  limit?: number;
}

/** Candidates similar to `input`, best first; ties keep the candidates' order. */
export function suggest(input: string, candidates: readonly string[], options: SuggestOptions = {}): Suggestion[] {
  const score = options.metric === "levenshtein" ? levenshteinSimilarity : jaroWinkler;
  const query = normalize(input, options);
  return candidates
    .map((value, index) => ({ value, index, score: score(query, normalize(value, options)) }))
    .filter((s) => s.score >= (options.threshold ?? 0.8))
    .sort((x, y) => y.score - x.score || x.index - y.index)
    .slice(0, options.limit ?? 3)
    .map(({ value, score }) => ({ value, score }));
}
