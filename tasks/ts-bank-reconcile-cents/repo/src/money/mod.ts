/** Integer-cent money helpers. */
export { AmountError, parseAmount } from "./amount.ts";
export { formatCents } from "./format.ts";
