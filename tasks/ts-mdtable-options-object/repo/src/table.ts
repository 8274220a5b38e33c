/** Formatting rows of cells as an aligned GitHub-flavoured Markdown table. */
import { type Align, displayWidth, pad } from "./width.ts";

export type { Align } from "./width.ts";

/** The delimiter-row cell for a column of `width` with `align` (":---", "---:", ":--:"). */
function delimiter(width: number, align: Align): string {
  if (align === "right") return "-".repeat(width - 1) + ":";
  if (align === "center") return ":" + "-".repeat(width - 2) + ":";
  return "-".repeat(width);
}

/**
 * Formats `rows` as a Markdown table.
 *
 * @param rows cells by row; short rows are padded with empty cells
 * @param hasHeader whether `rows[0]` is the header; without one, an empty header row is
 *   written (Markdown tables always need one)
 * @param align one alignment for every column, or one per column (missing ones are "left")
 * @param minWidth minimum column width (at least 3, so the delimiter row stays valid)
 * @param escapePipes whether "|" inside cells is written as "\|"
 */
export function formatTable(
  rows: string[][],
  hasHeader: boolean,
  align: Align | Align[],
  minWidth: number,
  escapePipes: boolean,
): string {
  const columns = Math.max(0, ...rows.map((r) => r.length));
  if (columns === 0) return "";
  const body = rows.map((row) =>
    Array.from({ length: columns }, (_, i) => {
      const cell = (row[i] ?? "").replace(/\r?\n/g, " ");
      return escapePipes ? cell.replace(/\|/g, "\\|") : cell;
    })
  );
  const header = hasHeader ? body.shift()! : Array(columns).fill("");
  const aligns = Array.from({ length: columns }, (_, i) => (Array.isArray(align) ? align[i] ?? "left" : align));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(Math.max(3, minWidth), displayWidth(header[i]), ...body.map((r) => displayWidth(r[i])))
  );
  const line = (cells: string[]) => `| ${cells.map((c, i) => pad(c, widths[i], aligns[i])).join(" | ")} |`;
  return [
    line(header),
    `| ${widths.map((w, i) => delimiter(w, aligns[i])).join(" | ")} |`,
    ...body.map(line),
  ].join("\n");
}
