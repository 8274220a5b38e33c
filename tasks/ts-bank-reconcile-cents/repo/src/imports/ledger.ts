/**
 * Ledger entries as the accounting system exports them (already in cents).
 */

/** One booked transaction; `amount` in cents, negative for payments out. */
export interface LedgerEntry {
  id: string;
  date: string;
  memo: string;
  amount: number;
  /** Invoice or payment reference, when the bookkeeper entered one. */
  reference?: string;
}

/** Validates entries and returns them sorted by date, then id. */
export function normalizeLedger(entries: LedgerEntry[]): LedgerEntry[] {
  for (const entry of entries) {
    if (!Number.isInteger(entry.amount)) throw new Error(`ledger entry ${entry.id}: amount must be integer cents`);
  }
  return [...entries].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}
