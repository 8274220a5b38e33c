/**
 * Bank reconciliation: pair the lines of a bank statement with the postings of one ledger
 * account. A line matches a posting of the same amount dated at most `windowDays` apart (banks
 * book card payments a few days late); each posting matches at most one line.
 */
import type { Ledger, RegisterRow } from "./ledger.ts";
import { addDays, daysBetween } from "./dates.ts";
import { LedgerError } from "./errors.ts";
import { type Money, money } from "./money.ts";

/** One line of a bank statement. */
export interface StatementLine {
  date: string;
  amount: Money;
  reference?: string;
}

/** A statement line and the posting it was paired with. */
export interface Match {
  line: StatementLine;
  posting: RegisterRow;
  /** Days from the posting to the statement line (positive when the bank booked it later). */
  lag: number;
}

/** The outcome of {@linkcode reconcile}. */
export interface Reconciliation {
  matched: Match[];
  /** Statement lines with no posting: missing from the books. */
  missingInLedger: StatementLine[];
  /** Postings in the statement's period with no line: not (yet) seen by the bank. */
  missingInStatement: RegisterRow[];
  statementTotal: Money;
  ledgerTotal: Money;
  /** `statementTotal - ledgerTotal`; zero when the account reconciles. */
  difference: Money;
}

/** Options of {@linkcode reconcile}. */
export interface ReconcileOptions {
  /** Largest allowed distance between a line's date and its posting's date (default 3). */
  windowDays?: number;
}

/**
 * Reconcile `lines` against the postings of `account` (without sub-accounts). Lines are taken in
 * date order; each takes the unmatched posting of equal amount closest in date, the earlier one
 * on a tie. The period is the first to the last statement date.
 */
export function reconcile(
  ledger: Ledger,
  account: string,
  lines: StatementLine[],
  options: ReconcileOptions = {},
): Reconciliation {
  if (lines.length === 0) throw new RangeError("A statement needs at least one line");
  const currency = lines[0].amount.currency;
  if (lines.some((l) => l.amount.currency !== currency)) {
    throw new LedgerError("currency_not_allowed", "A statement must be in one currency");
  }
  const window = options.windowDays ?? 3;
  const sorted = [...lines].sort((a, b) => a.date.localeCompare(b.date));
  const first = sorted[0].date;
  const last = sorted[sorted.length - 1].date;
  const candidates = ledger
    .register(account, {
      from: addDays(first, -window),
      until: addDays(last, window),
      includeChildren: false,
    })
    .filter((row) => row.amount.currency === currency);

  const used = new Set<number>();
  const matched: Match[] = [];
  const missingInLedger: StatementLine[] = [];
  for (const line of sorted) {
    let best = -1;
    for (let i = 0; i < candidates.length; i++) {
      const row = candidates[i];
      if (used.has(i) || row.amount.amount !== line.amount.amount) continue;
      const distance = Math.abs(daysBetween(row.date, line.date));
      if (distance > window) continue;
      if (best < 0 || distance < Math.abs(daysBetween(candidates[best].date, line.date))) best = i;
    }
    if (best < 0) {
      missingInLedger.push(line);
      continue;
    }
    used.add(best);
    matched.push({ line, posting: candidates[best], lag: daysBetween(candidates[best].date, line.date) });
  }

  const inPeriod = candidates.filter((row) => row.date >= first && row.date <= last);
  const missingInStatement = candidates.filter((row, i) =>
    !used.has(i) && row.date >= first && row.date <= last
  );
  const statementTotal = money(lines.reduce((sum, l) => sum + l.amount.amount, 0), currency);
  const ledgerTotal = money(inPeriod.reduce((sum, r) => sum + r.amount.amount, 0), currency);
  return {
    matched,
    missingInLedger,
    missingInStatement,
    statementTotal,
    ledgerTotal,
    difference: money(statementTotal.amount - ledgerTotal.amount, currency),
  };
}
