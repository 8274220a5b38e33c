/**
 * tally: a small double-entry ledger. Read a plain-text journal, post balanced transactions in
 * several currencies, reconcile bank statements and print reports.
 */
export { LedgerError, type LedgerErrorCode, ParseError } from "./errors.ts";
export { type CurrencyInfo, currencyInfo, decimalsOf, isCurrency, registerCurrency } from "./currency.ts";
export { divRound, type RoundingMode } from "./rounding.ts";
export {
  addMoney,
  allocate,
  formatDecimal,
  formatMoney,
  type Money,
  money,
  negate,
  parseDecimal,
  parseMoney,
} from "./money.ts";
export { Balance } from "./balance.ts";
export {
  addDays,
  addMonths,
  compareDates,
  daysBetween,
  daysInMonth,
  endOfMonth,
  inPeriod,
  parseDate,
  type Period,
  periodContaining,
  type PeriodUnit,
} from "./dates.ts";
export {
  type Account,
  type AccountType,
  accountType,
  Chart,
  isUnder,
  normalSign,
  parentOf,
} from "./accounts.ts";
export {
  type BalancedPosting,
  type BalancedTransaction,
  balanceTransaction,
  type Posting,
  residual,
  type Transaction,
  weightOf,
} from "./journal.ts";
export { invert, multiply, parseRate, type Rate, RateTable, rateToNumber } from "./rates.ts";
export { convert, convertBalance, type ConvertOptions } from "./convert.ts";
export { type Entry, parseJournal } from "./parser/journal_parser.ts";
export { parseAmount, parsePosting } from "./parser/amount.ts";
export { Ledger, loadJournal, type PostingFilter, type RegisterRow } from "./ledger.ts";
export { type Match, reconcile, type Reconciliation, type StatementLine } from "./reconcile.ts";
export { expand, type Interval, nthDate, occurrences, parseInterval, type Schedule } from "./recurring.ts";
export { renderTable } from "./reports/table.ts";
export { rollup, truncate } from "./reports/rollup.ts";
export { renderTrialBalance, type TrialBalance, trialBalance } from "./reports/trial_balance.ts";
export { type IncomeStatement, incomeStatement, renderIncomeStatement } from "./reports/income_statement.ts";
export { type BalanceSheet, balanceSheet, EARNINGS_ACCOUNT } from "./reports/balance_sheet.ts";
