import assert from "node:assert/strict";
import { checklist, inventoryReport } from "../src/report.ts";

Deno.test("inventory report with a reorder table", () => {
  const report = inventoryReport([
    { sku: "A-1", name: "Bolts", onHand: 120, reorderAt: 50 },
    { sku: "B-22", name: "Nuts", onHand: 8, reorderAt: 20 },
  ]);
  assert.equal(
    report,
    [
      "## Inventory",
      "",
      "| SKU  | Item  | On hand |",
      "| ---- | ----- | ------: |",
      "| A-1  | Bolts |     120 |",
      "| B-22 | Nuts  |       8 |",
      "",
      "## Reorder",
      "",
      "|        |        |",
      "| :----: | :----: |",
      "|  B-22  |   13   |",
      "",
    ].join("\n"),
  );
});

Deno.test("nothing to reorder", () => {
  assert.match(inventoryReport([{ sku: "A", name: "x", onHand: 5, reorderAt: 1 }]), /_Nothing to reorder._/);
});

Deno.test("checklist keeps Markdown in cells", () => {
  assert.equal(checklist(["[x] ship | deploy"]), "| Done?             |\n| ----------------- |\n| [x] ship | deploy |");
});
