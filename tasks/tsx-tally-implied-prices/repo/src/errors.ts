/**
 * Error classes of the ledger. Every error carries a `code` so callers (and the CLI that prints
 * them) can tell a malformed journal from a rule the books break.
 */

/** Codes of {@linkcode LedgerError}. */
export type LedgerErrorCode =
  | "unknown_currency"
  | "unknown_account"
  | "account_closed"
  | "currency_not_allowed"
  | "unbalanced"
  | "too_many_elided"
  | "no_rate"
  | "assertion_failed"
  | "invalid_schedule";

/** A rule of the books was broken: an unbalanced transaction, a closed account, a missing rate. */
export class LedgerError extends Error {
  readonly code: LedgerErrorCode;

  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = "LedgerError";
    this.code = code;
  }
}

/** The journal text could not be read; `line` is 1-based. */
export class ParseError extends Error {
  readonly line: number;

  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = "ParseError";
    this.line = line;
  }
}
