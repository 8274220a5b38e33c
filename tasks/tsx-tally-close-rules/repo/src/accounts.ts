/**
 * The chart of accounts. Account names are colon-separated paths whose first segment is the
 * account type (`Assets:Bank:Checking`). An account must be opened before it is posted to, may
 * restrict the currencies it holds, and can be closed.
 */
import { compareDates } from "./dates.ts";
import { LedgerError } from "./errors.ts";

/** The five root types of double-entry bookkeeping. */
export type AccountType = "Assets" | "Liabilities" | "Equity" | "Income" | "Expenses";

/** Root segments in the order reports list them. */
export const ACCOUNT_TYPES: readonly AccountType[] = [
  "Assets",
  "Liabilities",
  "Equity",
  "Income",
  "Expenses",
];

/** One account of the chart. */
export interface Account {
  name: string;
  type: AccountType;
  opened: string;
  closed: string | null;
  /** Currencies the account may hold; empty means any. */
  currencies: string[];
}

/** The type of `name`, from its first segment; throws `unknown_account` for anything else. */
export function accountType(name: string): AccountType {
  const root = name.split(":")[0] as AccountType;
  if (!ACCOUNT_TYPES.includes(root) || !isValidName(name)) {
    throw new LedgerError("unknown_account", `Invalid account name "${name}"`);
  }
  return root;
}

function isValidName(name: string): boolean {
  return name.split(":").every((segment) => /^[A-Z0-9][A-Za-z0-9-]*$/.test(segment));
}

/**
 * +1 for accounts whose balance is normally a debit (assets, expenses), -1 for those normally a
 * credit (liabilities, equity, income). Reports multiply by it to show natural signs.
 */
export function normalSign(type: AccountType): 1 | -1 {
  return type === "Assets" || type === "Expenses" ? 1 : -1;
}

/** `Assets:Bank` for `Assets:Bank:Checking`; null for a root. */
export function parentOf(name: string): string | null {
  const i = name.lastIndexOf(":");
  return i < 0 ? null : name.slice(0, i);
}

/** True when `name` is `ancestor` or lies below it. */
export function isUnder(name: string, ancestor: string): boolean {
  return name === ancestor || name.startsWith(ancestor + ":");
}

/** The accounts of a ledger with their open and close dates. */
export class Chart {
  readonly #accounts = new Map<string, Account>();

  /** Open `name` on `date`; opening an account twice is an error. */
  open(name: string, date: string, currencies: string[] = []): Account {
    const type = accountType(name);
    if (this.#accounts.has(name)) {
      throw new LedgerError("unknown_account", `Account "${name}" is already open`);
    }
    const account: Account = { name, type, opened: date, closed: null, currencies: [...currencies] };
    this.#accounts.set(name, account);
    return account;
  }

  /** Close `name` on `date`: postings dated after `date` are refused. */
  close(name: string, date: string): void {
    const account = this.get(name);
    if (compareDates(date, account.opened) < 0) {
      throw new LedgerError(
        "account_closed",
        `Cannot close "${name}" before it was opened (${account.opened})`,
      );
    }
    account.closed = date;
  }

  /** The account `name`; throws `unknown_account` when it was never opened. */
  get(name: string): Account {
    const account = this.#accounts.get(name);
    if (!account) throw new LedgerError("unknown_account", `Account "${name}" is not open`);
    return account;
  }

  /** True when `name` was opened. */
  has(name: string): boolean {
    return this.#accounts.has(name);
  }

  /**
   * Check that `name` accepts a posting of `currency` on `date`: it exists, is open on that day
   * (the open and close days included) and allows the currency.
   */
  checkPosting(name: string, date: string, currency: string): void {
    const account = this.get(name);
    if (compareDates(date, account.opened) < 0) {
      throw new LedgerError(
        "account_closed",
        `Account "${name}" is not open yet on ${date} (opened ${account.opened})`,
      );
    }
    if (account.closed !== null && compareDates(date, account.closed) > 0) {
      throw new LedgerError("account_closed", `Account "${name}" was closed on ${account.closed}`);
    }
    if (account.currencies.length > 0 && !account.currencies.includes(currency)) {
      throw new LedgerError("currency_not_allowed", `Account "${name}" does not hold ${currency}`);
    }
  }

  /** Every account, sorted by name. */
  list(): Account[] {
    return [...this.#accounts.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
