/**
 * A plain-text reconciliation summary for the month-end checklist.
 */
import { formatCents } from "./money/mod.ts";
import type { Reconciliation } from "./match/reconcile.ts";

/** Totals of what is still open after a run. */
export interface Summary {
  matched: number;
  openLines: number;
  openEntries: number;
  /** Statement total minus ledger total of the unmatched items, in cents. */
  difference: number;
}

/** Counts and the unexplained difference. */
export function summarize(result: Reconciliation): Summary {
  const sum = (xs: { amount: number }[]) => xs.reduce((total, x) => total + x.amount, 0);
  return {
    matched: result.matches.length,
    openLines: result.unmatchedLines.length,
    openEntries: result.unmatchedEntries.length,
    difference: sum(result.unmatchedLines) - sum(result.unmatchedEntries),
  };
}

/** Human-readable report lines. */
export function renderReport(result: Reconciliation): string {
  const s = summarize(result);
  const out = [`matched: ${s.matched}`, `open statement lines: ${s.openLines}`, `open ledger entries: ${s.openEntries}`];
  for (const line of result.unmatchedLines) out.push(`  bank ${line.id} ${line.date} ${formatCents(line.amount)} ${line.description}`);
  for (const entry of result.unmatchedEntries) out.push(`  ledger ${entry.id} ${entry.date} ${formatCents(entry.amount)} ${entry.memo}`);
  out.push(`unexplained difference: ${formatCents(s.difference)}`);
  return out.join("\n");
}
