/**
 * Scoring how likely a statement line and a ledger entry are the same transaction. Only pairs with
 * equal amounts within the date window are candidates; references and shared words raise the score.
 */
import { daysBetween } from "../dates.ts";
import type { LedgerEntry } from "../imports/ledger.ts";
import type { StatementLine } from "../imports/statement.ts";

/** Tunables for matching. */
export interface MatchOptions {
  /** Largest allowed gap in days between booking and clearing; default 5. */
  dateWindowDays: number;
}

/** Default {@linkcode MatchOptions}. */
export const DEFAULT_MATCH_OPTIONS: MatchOptions = { dateWindowDays: 5 };

/** Score in (0, 1] for a candidate pair, or 0 when the pair cannot match. */
export function scorePair(line: StatementLine, entry: LedgerEntry, options: MatchOptions): number {
  if (line.amount !== entry.amount) return 0;
  const gap = Math.abs(daysBetween(entry.date, line.date));
  if (gap > options.dateWindowDays) return 0;
  let score = 0.5 - gap * 0.05;
  if (entry.reference && line.reference && entry.reference.toUpperCase() === line.reference.toUpperCase()) {
    score += 0.4;
  }
  score += 0.1 * wordOverlap(line.description, entry.memo);
  return Math.min(1, Math.max(0.01, score));
}

/** Share of the memo's words (3+ letters) that appear in the description. */
export function wordOverlap(description: string, memo: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? []);
  const memoWords = words(memo);
  if (memoWords.size === 0) return 0;
  const descWords = words(description);
  let shared = 0;
  for (const w of memoWords) if (descWords.has(w)) shared++;
  return shared / memoWords.size;
}
