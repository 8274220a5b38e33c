/**
 * Transactions and postings, and the rule of double entry: the weights of a transaction's
 * postings sum to zero in every currency. One posting may leave its amount out; it receives
 * whatever balances the others.
 */
import { Balance } from "./balance.ts";
import { decimalsOf } from "./currency.ts";
import { LedgerError } from "./errors.ts";
import { type Money, money } from "./money.ts";
import { divRound, pow10 } from "./rounding.ts";

/** One line of a transaction: an amount moved into (positive) or out of (negative) an account. */
export interface Posting {
  account: string;
  /** null for the one posting whose amount is inferred. */
  amount: Money | null;
  /** Price per unit (`10 ACME @ 12.50 USD`): the posting then weighs amount x price. */
  price?: Money | null;
}

/** `*` for cleared, `!` for pending. */
export type TransactionFlag = "*" | "!";

/** A dated, described set of postings. */
export interface Transaction {
  date: string;
  flag: TransactionFlag;
  payee: string;
  postings: Posting[];
  tags: string[];
  /** 1-based line of the journal it came from, for error messages. */
  line?: number;
}

/** A posting after balancing: its amount is known. */
export interface BalancedPosting extends Posting {
  amount: Money;
}

/** A transaction after balancing. */
export interface BalancedTransaction extends Transaction {
  postings: BalancedPosting[];
}

/**
 * What a posting contributes to the transaction's balance: its amount, or with a price the
 * amount times the unit price in the price's currency (rounded half-even to its minor unit).
 */
export function weightOf(posting: BalancedPosting): Money {
  const { amount, price } = posting;
  if (!price) return amount;
  const scaled = divRound(BigInt(amount.amount) * BigInt(price.amount), pow10(decimalsOf(amount.currency)));
  return money(Number(scaled), price.currency);
}

/** Sum of the weights of `postings`. */
export function residual(postings: BalancedPosting[]): Balance {
  return postings.reduce((sum, p) => sum.add(weightOf(p)), new Balance());
}

function describe(tx: Transaction): string {
  return `${tx.date} "${tx.payee}"${tx.line ? ` (line ${tx.line})` : ""}`;
}

/**
 * `tx` with the elided posting filled in, or `tx` itself when every amount is given. When the
 * other postings leave several currencies open, the elided posting becomes one posting per
 * currency. Throws `unbalanced` when the postings do not sum to zero and `too_many_elided` when
 * more than one amount is missing.
 */
export function balanceTransaction(tx: Transaction): BalancedTransaction {
  const elided = tx.postings.filter((p) => p.amount === null);
  if (elided.length > 1) {
    throw new LedgerError("too_many_elided", `Transaction ${describe(tx)} leaves out more than one amount`);
  }
  const known = tx.postings.filter((p): p is BalancedPosting => p.amount !== null);
  const rest = residual(known);
  if (elided.length === 0) {
    if (!rest.isZero()) {
      throw new LedgerError("unbalanced", `Transaction ${describe(tx)} does not balance: off by ${rest}`);
    }
    return tx as BalancedTransaction;
  }
  const postings: BalancedPosting[] = [];
  for (const p of tx.postings) {
    if (p.amount !== null) {
      postings.push(p as BalancedPosting);
      continue;
    }
    for (const m of rest.negated().toMoney()) postings.push({ account: p.account, amount: m });
  }
  return { ...tx, postings };
}
