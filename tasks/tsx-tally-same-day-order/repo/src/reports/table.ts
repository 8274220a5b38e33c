/**
 * Plain-text tables for the reports: columns padded to their widest cell, amounts right-aligned.
 */
import { formatMoney, type Money } from "../money.ts";

/** One column: its heading and how its cells align. */
export interface Column {
  title: string;
  align: "left" | "right";
}

/** An amount as a report shows it: grouped thousands, its currency after it; blank for null. */
export function formatAmount(m: Money | null): string {
  return m === null ? "" : formatMoney(m, { grouping: true });
}

/** Render `rows` under `columns`, with a rule under the heading and `footer` rows after a rule. */
export function renderTable(columns: Column[], rows: string[][], footer: string[][] = []): string {
  const all = [columns.map((c) => c.title), ...rows, ...footer];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const cell = (text: string, i: number) =>
    columns[i].align === "right" ? text.padStart(widths[i]) : text.padEnd(widths[i]);
  const line = (cells: string[]) => columns.map((_, i) => cell(cells[i] ?? "", i)).join("  ").trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  const out = [line(columns.map((c) => c.title)), rule, ...rows.map(line)];
  if (footer.length > 0) out.push(rule, ...footer.map(line));
  return out.join("\n") + "\n";
}
