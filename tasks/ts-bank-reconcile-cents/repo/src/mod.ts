/**
 * recon: bank statement to ledger reconciliation.
 *
 * ```ts
 * const result = reconcile(readStatement(csvText), normalizeLedger(entries));
 * console.log(renderReport(result));
 * ```
 */
export * from "./money/mod.ts";
export { daysBetween, parseDate } from "./dates.ts";
export { readCsv } from "./imports/csv.ts";
export { readStatement } from "./imports/statement.ts";
export type { StatementLine } from "./imports/statement.ts";
export { normalizeLedger } from "./imports/ledger.ts";
export type { LedgerEntry } from "./imports/ledger.ts";
export { DEFAULT_MATCH_OPTIONS, scorePair, wordOverlap } from "./match/score.ts";
export type { MatchOptions } from "./match/score.ts";
export { reconcile } from "./match/reconcile.ts";
export type { Match, Reconciliation } from "./match/reconcile.ts";
export { renderReport, summarize } from "./report.ts";
export type { Summary } from "./report.ts";
