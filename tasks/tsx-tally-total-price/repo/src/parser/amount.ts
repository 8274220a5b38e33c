/**
 * Amounts and postings as written in a journal: `42.50 USD`, `-1,200 JPY`,
 * `10 ACME @ 12.50 USD`.
 */
import { decimalsOf, isCurrency } from "../currency.ts";
import { type Money, money, parseDecimal } from "../money.ts";
import type { Posting } from "../journal.ts";

/** Parse `"<number> <CURRENCY>"`; throws SyntaxError with the reason. */
export function parseAmount(text: string): Money {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2) throw new SyntaxError(`Expected "<number> <currency>", got "${text.trim()}"`);
  const [number, currency] = parts;
  if (!isCurrency(currency)) throw new SyntaxError(`Unknown currency "${currency}"`);
  return money(parseDecimal(number, decimalsOf(currency)), currency);
}

/**
 * Parse a posting line: an account, then optionally an amount, then optionally `@ <price>`. Two
 * or more spaces (or a tab) separate the account from the amount, as in most journals, but one
 * space is accepted too.
 */
export function parsePosting(text: string): Posting {
  const [left, priceText] = splitPrice(text);
  const match = /^(\S+)(?:\s+(.+))?$/.exec(left.trim());
  if (!match) throw new SyntaxError(`Expected a posting, got "${text}"`);
  const [, account, amountText] = match;
  const amount = amountText === undefined ? null : parseAmount(amountText);
  if (priceText !== null) {
    if (amount === null) throw new SyntaxError(`A price needs an amount: "${text}"`);
    const price = parseAmount(priceText);
    if (price.amount < 0) throw new SyntaxError(`A price cannot be negative: "${text}"`);
    return { account, amount, price };
  }
  return { account, amount };
}

function splitPrice(text: string): [string, string | null] {
  const at = text.indexOf("@");
  return at < 0 ? [text, null] : [text.slice(0, at), text.slice(at + 1)];
}
