/**
 * Minimal CSV reader for bank exports: comma separated, double-quoted fields with `""` escapes,
 * first line is the header. Blank lines are skipped.
 */

/** Parses CSV text into records keyed by the (trimmed) header names. */
export function readCsv(text: string): Record<string, string>[] {
  const rows = splitRows(text).filter((row) => row.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) return [];
  const header = rows[0].map((h) => h.trim());
  return rows.slice(1).map((row) => Object.fromEntries(header.map((h, i) => [h, (row[i] ?? "").trim()])));
}

function splitRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
