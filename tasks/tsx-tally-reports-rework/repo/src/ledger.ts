/**
 * The ledger: a chart of accounts, exchange rates and the balanced transactions posted to it, in
 * date order. Balances, registers and every report are computed from here.
 */
import { Chart, isUnder } from "./accounts.ts";
import { Balance } from "./balance.ts";
import { compareDates } from "./dates.ts";
import { LedgerError } from "./errors.ts";
import { type BalancedTransaction, balanceTransaction, type Transaction } from "./journal.ts";
import { formatMoney, type Money } from "./money.ts";
import { type Entry, parseJournal } from "./parser/journal_parser.ts";
import { RateTable } from "./rates.ts";

/** Which postings a query looks at. */
export interface PostingFilter {
  /** First day included. */
  from?: string;
  /** Last day included. */
  until?: string;
  /** Also count the account's sub-accounts (default true). */
  includeChildren?: boolean;
}

/** One line of an account's register. */
export interface RegisterRow {
  date: string;
  payee: string;
  account: string;
  amount: Money;
  /** Balance of the queried account after this posting. */
  running: Balance;
}

/** A ledger in memory. */
export class Ledger {
  readonly chart = new Chart();
  readonly rates = new RateTable();
  readonly #transactions: BalancedTransaction[] = [];
  readonly #assertions: Extract<Entry, { kind: "balance" }>[] = [];

  /** Balance `tx`, check it against the chart and add it in date order; returns it balanced. */
  post(tx: Transaction): BalancedTransaction {
    const balanced = balanceTransaction(tx);
    for (const p of balanced.postings) this.chart.checkPosting(p.account, balanced.date, p.amount.currency);
    let at = this.#transactions.length;
    while (at > 0 && compareDates(this.#transactions[at - 1].date, balanced.date) > 0) at--;
    this.#transactions.splice(at, 0, balanced);
    return balanced;
  }

  /**
   * Apply parsed entries in file order, then check every `balance` assertion against the
   * finished ledger (an assertion holds at the end of its day).
   */
  load(entries: Entry[]): this {
    for (const entry of entries) {
      switch (entry.kind) {
        case "open":
          this.chart.open(entry.account, entry.date, entry.currencies);
          break;
        case "close":
          this.chart.close(entry.account, entry.date);
          break;
        case "rate":
          this.rates.add(entry.date, entry.base, entry.quote, entry.rate);
          break;
        case "balance":
          this.#assertions.push(entry);
          break;
        case "transaction":
          this.post(entry.transaction);
          break;
      }
    }
    this.checkAssertions();
    return this;
  }

  /** Throw `assertion_failed` for the first `balance` assertion that does not hold. */
  checkAssertions(): void {
    for (const a of this.#assertions) {
      const actual = this.balanceOf(a.account, { until: a.date }).get(a.amount.currency);
      if (actual !== a.amount.amount) {
        const found = formatMoney({ amount: actual, currency: a.amount.currency });
        throw new LedgerError(
          "assertion_failed",
          `Balance of "${a.account}" on ${a.date} is ${found}, expected ${
            formatMoney(a.amount)
          } (line ${a.line})`,
        );
      }
    }
  }

  /** The transactions dated within `filter`, oldest first. */
  transactions(filter: Pick<PostingFilter, "from" | "until"> = {}): BalancedTransaction[] {
    return this.#transactions.filter((tx) => inRange(tx.date, filter));
  }

  /** Balance of `account` (and by default its sub-accounts) over the postings in `filter`. */
  balanceOf(account: string, filter: PostingFilter = {}): Balance {
    let balance = new Balance();
    for (const row of this.#postings(account, filter)) balance = balance.add(row.amount);
    return balance;
  }

  /** Every posting to `account` in `filter` with the running balance after it. */
  register(account: string, filter: PostingFilter = {}): RegisterRow[] {
    let running = new Balance();
    return this.#postings(account, filter).map((row) => {
      running = running.add(row.amount);
      return { ...row, running };
    });
  }

  /** Names of the accounts that have at least one posting, sorted. */
  postedAccounts(): string[] {
    const names = new Set<string>();
    for (const tx of this.#transactions) for (const p of tx.postings) names.add(p.account);
    return [...names].sort();
  }

  #postings(account: string, filter: PostingFilter): Omit<RegisterRow, "running">[] {
    const children = filter.includeChildren ?? true;
    const rows: Omit<RegisterRow, "running">[] = [];
    for (const tx of this.#transactions) {
      if (!inRange(tx.date, filter)) continue;
      for (const p of tx.postings) {
        if (children ? isUnder(p.account, account) : p.account === account) {
          rows.push({ date: tx.date, payee: tx.payee, account: p.account, amount: p.amount });
        }
      }
    }
    return rows;
  }
}

function inRange(date: string, filter: Pick<PostingFilter, "from" | "until">): boolean {
  return (filter.from === undefined || date >= filter.from) &&
    (filter.until === undefined || date <= filter.until);
}

/** Parse journal `text` and load it into a new ledger. */
export function loadJournal(text: string): Ledger {
  return new Ledger().load(parseJournal(text));
}
