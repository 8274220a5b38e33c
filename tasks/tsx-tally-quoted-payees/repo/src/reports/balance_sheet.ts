/**
 * The balance sheet on a date: assets, liabilities and equity in one currency with natural signs.
 * Income and expenses not yet closed to equity appear as one equity line, "Equity:Earnings", so
 * assets always equal liabilities plus equity (up to conversion differences, shown separately).
 */
import { type AccountType, accountType, normalSign } from "../accounts.ts";
import { Balance } from "../balance.ts";
import { convertBalance } from "../convert.ts";
import type { Ledger } from "../ledger.ts";
import { type Money, money } from "../money.ts";
import { rollup } from "./rollup.ts";

/** Name of the equity line that holds income and expenses not closed yet. */
export const EARNINGS_ACCOUNT = "Equity:Earnings";

/** One line of a section. */
export interface SheetRow {
  account: string;
  amount: Money;
}

/** A computed balance sheet. */
export interface BalanceSheet {
  date: string;
  currency: string;
  assets: SheetRow[];
  liabilities: SheetRow[];
  equity: SheetRow[];
  totalAssets: Money;
  totalLiabilities: Money;
  totalEquity: Money;
  /** Assets minus liabilities and equity: what rounding and rate changes leave over. */
  conversionDifference: Money;
}

/** The balance sheet of `ledger` at the end of `date` in `currency`, accounts cut at `depth`. */
export function balanceSheet(
  ledger: Ledger,
  date: string,
  currency: string,
  options: { depth?: number } = {},
): BalanceSheet {
  const balances = new Map<string, Balance>();
  let earnings = new Balance();
  for (const account of ledger.postedAccounts()) {
    const balance = ledger.balanceOf(account, { until: date, includeChildren: false });
    const type = accountType(account);
    if (type === "Income" || type === "Expenses") earnings = earnings.plus(balance);
    else balances.set(account, balance);
  }
  if (!earnings.isZero()) {
    balances.set(EARNINGS_ACCOUNT, (balances.get(EARNINGS_ACCOUNT) ?? new Balance()).plus(earnings));
  }
  const tree = rollup(balances, options.depth ?? 2);
  const value = (account: string, type: AccountType) =>
    money(
      normalSign(type) *
        convertBalance(tree.get(account) ?? new Balance(), currency, date, ledger.rates).amount,
      currency,
    );
  const section = (type: AccountType): SheetRow[] =>
    [...tree.keys()]
      .filter((account) => account !== type && accountType(account) === type)
      .filter((account) => !hasChildren(tree, account))
      .map((account) => ({ account, amount: value(account, type) }))
      .filter((row) => row.amount.amount !== 0);
  const totalAssets = value("Assets", "Assets");
  const totalLiabilities = value("Liabilities", "Liabilities");
  const totalEquity = value("Equity", "Equity");
  return {
    date,
    currency,
    assets: section("Assets"),
    liabilities: section("Liabilities"),
    equity: section("Equity"),
    totalAssets,
    totalLiabilities,
    totalEquity,
    conversionDifference: money(totalAssets.amount - totalLiabilities.amount - totalEquity.amount, currency),
  };
}

function hasChildren(tree: Map<string, Balance>, account: string): boolean {
  for (const name of tree.keys()) if (name.startsWith(account + ":")) return true;
  return false;
}
