/**
 * Reads a plain-text journal into entries: transactions and the `open`, `close`, `rate` and
 * `balance` directives. The parser only reads; the {@linkcode Ledger} applies the rules.
 *
 * ```
 * 2024-01-01 open Assets:Bank USD
 * 2024-01-05 rate EUR USD 1.0834
 * 2024-01-10 * Grocery store #food
 *   Expenses:Food   42.50 USD
 *   Assets:Bank
 * 2024-01-31 balance Assets:Bank -42.50 USD
 * ```
 */
import { ParseError } from "../errors.ts";
import { parseDate } from "../dates.ts";
import type { Money } from "../money.ts";
import type { Transaction, TransactionFlag } from "../journal.ts";
import { parseAmount, parsePosting } from "./amount.ts";
import { type SourceLine, sourceLines } from "./lines.ts";
import { parseRate, type Rate } from "../rates.ts";

/** One entry of a journal, in file order. */
export type Entry =
  | { kind: "open"; date: string; account: string; currencies: string[]; line: number }
  | { kind: "close"; date: string; account: string; line: number }
  | { kind: "rate"; date: string; base: string; quote: string; rate: Rate; line: number }
  | { kind: "balance"; date: string; account: string; amount: Money; line: number }
  | { kind: "transaction"; transaction: Transaction; line: number };

/** Parse `text`; throws {@linkcode ParseError} naming the line of the first problem. */
export function parseJournal(text: string): Entry[] {
  const lines = sourceLines(text);
  const entries: Entry[] = [];
  let i = 0;
  while (i < lines.length) {
    const head = lines[i];
    if (head.indented) throw new ParseError(head.line, "Posting outside a transaction");
    const postings: SourceLine[] = [];
    i++;
    while (i < lines.length && lines[i].indented) postings.push(lines[i++]);
    entries.push(at(head.line, () => parseEntry(head, postings)));
  }
  return entries;
}

function at<T>(line: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof RangeError) {
      throw new ParseError(line, error.message);
    }
    throw error;
  }
}

function parseEntry(head: SourceLine, postingLines: SourceLine[]): Entry {
  const [dateText, keyword = "", ...rest] = head.text.split(/\s+/);
  const date = parseDate(dateText);
  const line = head.line;
  if (keyword === "*" || keyword === "!") {
    return {
      kind: "transaction",
      transaction: parseTransaction(date, keyword, rest, postingLines, line),
      line,
    };
  }
  if (postingLines.length > 0) {
    throw new ParseError(postingLines[0].line, `A ${keyword} directive has no postings`);
  }
  switch (keyword) {
    case "open": {
      const [account, currencies] = expectArgs(rest, 1, 2, "open <account> [CUR,CUR]");
      return { kind: "open", date, account, currencies: currencies ? currencies.split(",") : [], line };
    }
    case "close": {
      const [account] = expectArgs(rest, 1, 1, "close <account>");
      return { kind: "close", date, account, line };
    }
    case "rate": {
      const [base, quote, rate] = expectArgs(rest, 3, 3, "rate <base> <quote> <rate>");
      return { kind: "rate", date, base, quote, rate: parseRate(rate), line };
    }
    case "balance": {
      const [account, ...amount] = expectArgs(rest, 3, 3, "balance <account> <amount> <currency>");
      return { kind: "balance", date, account, amount: parseAmount(amount.join(" ")), line };
    }
    default:
      throw new SyntaxError(`Unknown entry "${keyword}" (expected *, !, open, close, rate or balance)`);
  }
}

function expectArgs(args: string[], min: number, max: number, usage: string): string[] {
  if (args.length < min || args.length > max) throw new SyntaxError(`Expected "${usage}"`);
  return args;
}

function parseTransaction(
  date: string,
  flag: TransactionFlag,
  words: string[],
  postingLines: SourceLine[],
  line: number,
): Transaction {
  const tags = words.filter((w) => w.startsWith("#") && w.length > 1).map((w) => w.slice(1));
  const payee = words.filter((w) => !w.startsWith("#")).join(" ").replace(/^"(.*)"$/, "$1");
  if (postingLines.length < 2) throw new SyntaxError("A transaction needs at least two postings");
  const postings = postingLines.map((p) => at(p.line, () => parsePosting(p.text)));
  return { date, flag, payee, postings, tags, line };
}
