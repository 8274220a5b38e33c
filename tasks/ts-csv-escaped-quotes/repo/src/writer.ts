/** CSV output, quoting only where needed. */

export type Cell = string | number | boolean | null | undefined;

export interface WriteOptions {
  delimiter?: string;
  newline?: "\n" | "\r\n";
}

/** Format one value; quotes it when it contains the delimiter, quotes, newlines or edge spaces. */
export function formatField(value: Cell, delimiter = ","): string {
  const text = value === null || value === undefined ? "" : String(value);
  const needsQuotes = text.includes(delimiter) || /["\r\n]/.test(text) || text !== text.trim();
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Serialize rows; the output ends with a newline. */
export function stringifyCsv(rows: Cell[][], options: WriteOptions = {}): string {
  const { delimiter = ",", newline = "\r\n" } = options;
  return rows.map((r) => r.map((c) => formatField(c, delimiter)).join(delimiter) + newline).join("");
}

/** Serialize records under a header (columns default to the first record's keys). */
export function writeRecords(
  records: Record<string, Cell>[],
  columns: string[] = Object.keys(records[0] ?? {}),
  options: WriteOptions = {},
): string {
  return stringifyCsv([columns, ...records.map((r) => columns.map((c) => r[c]))], options);
}
