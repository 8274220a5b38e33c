/** The weekly inventory report as Markdown. */
import { formatTable } from "./table.ts";

export interface StockLine {
  sku: string;
  name: string;
  onHand: number;
  reorderAt: number;
}

/** One table of all items plus a compact table of the items to reorder. */
export function inventoryReport(lines: StockLine[]): string {
  const all = formatTable(
    [["SKU", "Item", "On hand"], ...lines.map((l) => [l.sku, l.name, String(l.onHand)])],
    true,
    ["left", "left", "right"],
    3,
    true,
  );
  const low = lines.filter((l) => l.onHand <= l.reorderAt);
  const reorder = low.length === 0
    ? "_Nothing to reorder._"
    : formatTable(low.map((l) => [l.sku, `${l.reorderAt - l.onHand + 1}`]), false, "center", 6, true);
  return `## Inventory\n\n${all}\n\n## Reorder\n\n${reorder}\n`;
}

/** A one-column checklist table; cell text is Markdown and is kept as written. */
export function checklist(items: string[]): string {
  return formatTable([["Done?"], ...items.map((i) => [i])], true, "left", 3, false);
}
