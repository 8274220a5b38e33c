/**
 * A multi-currency balance: how much of each currency an account (or a transaction's residual)
 * holds. Currencies with a zero amount are dropped so two equal balances compare equal.
 */
import { formatMoney, type Money } from "./money.ts";

/** An immutable bag of amounts keyed by currency. */
export class Balance {
  readonly #amounts: ReadonlyMap<string, number>;

  constructor(amounts: Iterable<[string, number]> = []) {
    const map = new Map<string, number>();
    for (const [currency, amount] of amounts) {
      const sum = (map.get(currency) ?? 0) + amount;
      if (sum === 0) map.delete(currency);
      else map.set(currency, sum);
    }
    this.#amounts = map;
  }

  /** A balance holding `items`. */
  static of(...items: Money[]): Balance {
    return new Balance(items.map((m) => [m.currency, m.amount]));
  }

  /** This balance plus `m`. */
  add(m: Money): Balance {
    return new Balance([...this.#amounts, [m.currency, m.amount]]);
  }

  /** This balance plus every amount of `other`. */
  plus(other: Balance): Balance {
    return new Balance([...this.#amounts, ...other.#amounts]);
  }

  /** Every amount negated. */
  negated(): Balance {
    return new Balance([...this.#amounts].map(([c, a]) => [c, -a]));
  }

  /** Amount of `currency` in minor units (0 when absent). */
  get(currency: string): number {
    return this.#amounts.get(currency) ?? 0;
  }

  /** True when every currency nets to zero. */
  isZero(): boolean {
    return this.#amounts.size === 0;
  }

  /** Currencies with a non-zero amount, sorted. */
  currencies(): string[] {
    return [...this.#amounts.keys()].sort();
  }

  /** The non-zero amounts as money, sorted by currency. */
  toMoney(): Money[] {
    return this.currencies().map((c) => ({ amount: this.get(c), currency: c }));
  }

  /** True when both balances hold the same amounts. */
  equals(other: Balance): boolean {
    const mine = this.currencies();
    const theirs = other.currencies();
    return mine.length === theirs.length &&
      mine.every((c, i) => c === theirs[i] && this.get(c) === other.get(c));
  }

  /** `"12.00 EUR, 3.50 USD"`, or `"0"` when empty. */
  toString(): string {
    return this.isZero() ? "0" : this.toMoney().map((m) => formatMoney(m)).join(", ");
  }
}
