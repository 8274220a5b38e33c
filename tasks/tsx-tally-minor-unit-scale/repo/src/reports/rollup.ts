/**
 * Totals of an account tree: balances of leaf accounts summed into every ancestor, optionally cut
 * at a depth (`Expenses:Food:Groceries` at depth 2 counts as `Expenses:Food`).
 */
import { parentOf } from "../accounts.ts";
import { Balance } from "../balance.ts";

/** Truncate `account` to its first `depth` segments. */
export function truncate(account: string, depth: number): string {
  return account.split(":").slice(0, depth).join(":");
}

/**
 * Sum `balances` into every ancestor. With `depth`, accounts deeper than it are folded into their
 * ancestor at that depth. Returns a map sorted by account name.
 */
export function rollup(balances: Map<string, Balance>, depth?: number): Map<string, Balance> {
  const totals = new Map<string, Balance>();
  for (const [account, balance] of balances) {
    let name: string | null = depth === undefined ? account : truncate(account, depth);
    while (name !== null) {
      totals.set(name, (totals.get(name) ?? new Balance()).plus(balance));
      name = parentOf(name);
    }
  }
  return new Map([...totals].sort(([a], [b]) => a.localeCompare(b)));
}
