/**
 * Bank statement lines from the bank's CSV export (`Date,Description,Amount,Reference`).
 */
import { parseAmount } from "../money/mod.ts";
import { parseDate } from "../dates.ts";
import { readCsv } from "./csv.ts";

/** One line of a bank statement; `amount` in cents, negative for money leaving the account. */
export interface StatementLine {
  id: string;
  date: string;
  description: string;
  amount: number;
  reference: string;
}

/** Reads a bank CSV export; line ids are `B1`, `B2`, ... in file order. */
export function readStatement(csv: string): StatementLine[] {
  return readCsv(csv).map((record, i) => ({
    id: `B${i + 1}`,
    date: parseDate(record["Date"]),
    description: record["Description"] ?? "",
    amount: parseAmount(record["Amount"]),
    reference: record["Reference"] ?? "",
  }));
}
