/** Converting simple CSV (quoted fields, doubled quotes) to a Markdown table. */
import { formatTable } from "./table.ts";

/** Splits CSV text into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The first CSV row becomes the header; numeric columns are right-aligned. */
export function csvToMarkdown(text: string): string {
  const rows = parseCsv(text);
  const columns = Math.max(0, ...rows.map((r) => r.length));
  const numeric = Array.from({ length: columns }, (_, i) =>
    rows.length > 1 && rows.slice(1).every((r) => /^-?\d+(\.\d+)?$/.test(r[i] ?? ""))
  );
  return formatTable(rows, true, numeric.map((n) => (n ? "right" : "left")), 3, true);
}
