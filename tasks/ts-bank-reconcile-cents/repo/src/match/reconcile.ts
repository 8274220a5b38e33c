/**
 * Greedy one-to-one reconciliation: every candidate pair is scored, then pairs are taken from the
 * best score down, skipping lines or entries that are already matched.
 */
import type { LedgerEntry } from "../imports/ledger.ts";
import type { StatementLine } from "../imports/statement.ts";
import { DEFAULT_MATCH_OPTIONS, type MatchOptions, scorePair } from "./score.ts";

/** A matched pair. */
export interface Match {
  lineId: string;
  entryId: string;
  score: number;
}

/** Result of a reconciliation run. */
export interface Reconciliation {
  matches: Match[];
  unmatchedLines: StatementLine[];
  unmatchedEntries: LedgerEntry[];
}

/** Matches statement lines to ledger entries one-to-one. */
export function reconcile(
  lines: StatementLine[],
  entries: LedgerEntry[],
  options: Partial<MatchOptions> = {},
): Reconciliation {
  const opts = { ...DEFAULT_MATCH_OPTIONS, ...options };
  const candidates: Match[] = [];
  for (const line of lines) {
    for (const entry of entries) {
      const score = scorePair(line, entry, opts);
      if (score > 0) candidates.push({ lineId: line.id, entryId: entry.id, score });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.lineId.localeCompare(b.lineId) || a.entryId.localeCompare(b.entryId));
  const usedLines = new Set<string>();
  const usedEntries = new Set<string>();
  const matches: Match[] = [];
  for (const c of candidates) {
    if (usedLines.has(c.lineId) || usedEntries.has(c.entryId)) continue;
    usedLines.add(c.lineId);
    usedEntries.add(c.entryId);
    matches.push(c);
  }
  matches.sort((a, b) => a.lineId.localeCompare(b.lineId, undefined, { numeric: true }));
  return {
    matches,
    unmatchedLines: lines.filter((l) => !usedLines.has(l.id)),
    unmatchedEntries: entries.filter((e) => !usedEntries.has(e.id)),
  };
}
