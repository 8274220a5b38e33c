/**
 * The income statement (profit and loss) of a period: income and expenses per account in one
 * currency, with natural signs (income and expenses both shown positive), and the net income.
 * Each posting is converted at the rate of its own date, so a month's figures do not change when
 * rates move later.
 */
import { type AccountType, accountType, normalSign } from "../accounts.ts";
import { Balance } from "../balance.ts";
import { convert } from "../convert.ts";
import type { Period } from "../dates.ts";
import type { Ledger } from "../ledger.ts";
import { type Money, money } from "../money.ts";
import { truncate } from "./rollup.ts";
import { type Column, formatAmount, renderTable } from "./table.ts";

/** One line of the statement. */
export interface StatementRow {
  account: string;
  amount: Money;
}

/** A computed income statement. */
export interface IncomeStatement {
  period: Period;
  currency: string;
  income: StatementRow[];
  expenses: StatementRow[];
  totalIncome: Money;
  totalExpenses: Money;
  /** Income minus expenses. */
  net: Money;
}

/** Options of {@linkcode incomeStatement}. */
export interface IncomeStatementOptions {
  /** Fold deeper accounts into their ancestor at this depth. */
  depth?: number;
}

/** The income statement of `ledger` over `period` in `currency`. */
export function incomeStatement(
  ledger: Ledger,
  period: Period,
  currency: string,
  options: IncomeStatementOptions = {},
): IncomeStatement {
  const leaves = new Map<string, Balance>();
  for (const tx of ledger.transactions({ from: period.start, until: period.end })) {
    for (const p of tx.postings) {
      const type = accountType(p.account);
      if (type !== "Income" && type !== "Expenses") continue;
      const value = convert(p.amount, currency, tx.date, ledger.rates);
      leaves.set(p.account, (leaves.get(p.account) ?? new Balance()).add(value));
    }
  }
  const rows = new Map<string, Balance>();
  for (const [account, balance] of leaves) {
    const name = options.depth === undefined ? account : truncate(account, options.depth);
    rows.set(name, (rows.get(name) ?? new Balance()).plus(balance));
  }
  const section = (type: AccountType): StatementRow[] =>
    [...rows]
      .filter(([account]) => accountType(account) === type)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([account, balance]) => ({
        account,
        amount: money(normalSign(type) * balance.get(currency), currency),
      }));
  const sum = (items: StatementRow[]) => money(items.reduce((t, r) => t + r.amount.amount, 0), currency);
  const income = section("Income");
  const expenses = section("Expenses");
  const totalIncome = sum(income);
  const totalExpenses = sum(expenses);
  return {
    period,
    currency,
    income,
    expenses,
    totalIncome,
    totalExpenses,
    net: money(totalIncome.amount - totalExpenses.amount, currency),
  };
}

const COLUMNS: Column[] = [
  { title: "Account", align: "left" },
  { title: "Amount", align: "right" },
];

/** `s` as a text table: income, then expenses, then the net income. */
export function renderIncomeStatement(s: IncomeStatement): string {
  const rows = [
    ...s.income.map((r) => [r.account, formatAmount(r.amount)]),
    ["Total income", formatAmount(s.totalIncome)],
    ...s.expenses.map((r) => [r.account, formatAmount(r.amount)]),
    ["Total expenses", formatAmount(s.totalExpenses)],
  ];
  return `Income statement ${s.period.start} to ${s.period.end} (${s.currency})\n` +
    renderTable(COLUMNS, rows, [["Net income", formatAmount(s.net)]]);
}
