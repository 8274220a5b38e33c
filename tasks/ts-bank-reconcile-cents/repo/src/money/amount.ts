/**
 * Parsing money amounts as bank exports write them. Amounts are integer cents everywhere in the
 * reconciler so that comparisons are exact.
 *
 * Accepted forms: `1234.5`, `1,234.50`, `-12.30`, `(12.30)` (accounting negative), `12.30 DR`
 * (debit, negative) and `12.30 CR` (credit, positive), with an optional currency symbol.
 */

/** Thrown when a string is not a recognizable amount. */
export class AmountError extends Error {
  constructor(readonly input: string) {
    super(`not an amount: "${input}"`);
    this.name = "AmountError";
  }
}

/** Parses an amount string into integer cents. */
export function parseAmount(input: string): number {
  let text = input.trim().toUpperCase();
  let sign = 1;
  if (text.endsWith(" DR")) {
    sign = -1;
    text = text.slice(0, -3);
  } else if (text.endsWith(" CR")) {
    text = text.slice(0, -3);
  }
  if (text.startsWith("(") && text.endsWith(")")) {
    sign = -sign;
    text = text.slice(1, -1);
  }
  if (text.startsWith("-")) {
    sign = -sign;
    text = text.slice(1);
  }
  text = text.replace(/^[$€£]/, "").replace(/,/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new AmountError(input);
  return sign * Math.trunc(Number(text) * 100);
}
