/** High-level CSV reading: rows and header-keyed records. */
import { CsvError, lex } from "./lexer.ts";

export interface ReadOptions {
  delimiter?: string;
  /** Trim spaces around unquoted values. Default false. */
  trim?: boolean;
  /** Drop rows whose fields are all empty. Default true. */
  skipEmpty?: boolean;
}

/** Parse CSV text into rows of strings. */
export function parseCsv(text: string, options: ReadOptions = {}): string[][] {
  const { delimiter = ",", trim = false, skipEmpty = true } = options;
  let rows = lex(text, delimiter);
  if (trim) rows = rows.map((r) => r.map((f) => f.trim()));
  if (skipEmpty) rows = rows.filter((r) => r.some((f) => f !== ""));
  return rows;
}

/** Parse CSV whose first row is a header into one object per data row. */
export function readRecords(text: string, options: ReadOptions = {}): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text, options);
  if (!header) return [];
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) throw new CsvError(`duplicate column ${JSON.stringify(name)}`, 1, 0);
    seen.add(name);
  }
  return rows.map((row, i) => {
    if (row.length !== header.length) {
      throw new CsvError(`expected ${header.length} fields, got ${row.length}`, i + 2, 0);
    }
    return Object.fromEntries(header.map((name, j) => [name, row[j]]));
  });
}
