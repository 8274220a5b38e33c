/**
 * The trial balance: every account's balance on a date in one reporting currency, debits in one
 * column and credits in the other. Converted at the rates in force on that date.
 */
import { Balance } from "../balance.ts";
import { convertBalance } from "../convert.ts";
import type { Ledger } from "../ledger.ts";
import { type Money, money } from "../money.ts";
import { type Column, formatAmount, renderTable } from "./table.ts";

/** One account's line. */
export interface TrialBalanceRow {
  account: string;
  debit: Money | null;
  credit: Money | null;
}

/** A computed trial balance. */
export interface TrialBalance {
  date: string;
  currency: string;
  rows: TrialBalanceRow[];
  totalDebit: Money;
  totalCredit: Money;
}

/** The trial balance of `ledger` at the end of `date`, in `currency`. */
export function trialBalance(ledger: Ledger, date: string, currency: string): TrialBalance {
  const rows: TrialBalanceRow[] = [];
  let debit = 0;
  let credit = 0;
  for (const account of ledger.postedAccounts()) {
    const balance: Balance = ledger.balanceOf(account, { until: date, includeChildren: false });
    if (balance.isZero()) continue;
    const value = convertBalance(balance, currency, date, ledger.rates);
    if (value.amount === 0) continue;
    if (value.amount > 0) {
      rows.push({ account, debit: value, credit: null });
      debit += value.amount;
    } else {
      rows.push({ account, debit: null, credit: money(-value.amount, currency) });
      credit -= value.amount;
    }
  }
  return { date, currency, rows, totalDebit: money(debit, currency), totalCredit: money(credit, currency) };
}

const COLUMNS: Column[] = [
  { title: "Account", align: "left" },
  { title: "Debit", align: "right" },
  { title: "Credit", align: "right" },
];

/** `tb` as a text table with a totals line. */
export function renderTrialBalance(tb: TrialBalance): string {
  const rows = tb.rows.map((r) => [r.account, formatAmount(r.debit), formatAmount(r.credit)]);
  const footer = [["Total", formatAmount(tb.totalDebit), formatAmount(tb.totalCredit)]];
  return `Trial balance on ${tb.date} (${tb.currency})\n` + renderTable(COLUMNS, rows, footer);
}
