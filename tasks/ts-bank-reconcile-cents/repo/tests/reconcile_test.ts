import assert from "node:assert/strict";
import { normalizeLedger, reconcile, readStatement, summarize } from "../src/mod.ts";

const statement = readStatement(`Date,Description,Amount,Reference
02/01/2024,ACME LTD INVOICE,1500.00,INV-7
03/01/2024,OFFICE RENT JAN,(2000.00),
05/01/2024,UNKNOWN TRANSFER,75.00,
`);

const ledger = normalizeLedger([
  { id: "L1", date: "2023-12-30", memo: "Acme invoice 7", amount: 150000, reference: "INV-7" },
  { id: "L2", date: "2024-01-02", memo: "Office rent", amount: -200000 },
  { id: "L3", date: "2024-01-04", memo: "Stationery", amount: -4500 },
]);

Deno.test("reconcile pairs lines with the same amount in the date window", () => {
  const result = reconcile(statement, ledger);
  assert.deepEqual(result.matches.map((m) => [m.lineId, m.entryId]), [["B1", "L1"], ["B2", "L2"]]);
});

Deno.test("reconcile leaves the rest open and summarizes the difference", () => {
  const summary = summarize(reconcile(statement, ledger));
  assert.deepEqual(summary, { matched: 2, openLines: 1, openEntries: 1, difference: 7500 + 4500 });
});

Deno.test("reconcile prefers the entry with the matching reference", () => {
  const lines = readStatement("Date,Description,Amount,Reference\n10/01/2024,PAYMENT,100.00,INV-9\n");
  const entries = [
    { id: "L1", date: "2024-01-10", memo: "Payment", amount: 10000, reference: "INV-8" },
    { id: "L2", date: "2024-01-08", memo: "Payment", amount: 10000, reference: "INV-9" },
  ];
  assert.equal(reconcile(lines, entries).matches[0].entryId, "L2");
});

Deno.test("reconcile respects the date window", () => {
  const lines = readStatement("Date,Description,Amount,Reference\n20/01/2024,RENT,(2000.00),\n");
  assert.equal(reconcile(lines, ledger).matches.length, 0);
  assert.equal(reconcile(lines, ledger, { dateWindowDays: 30 }).matches.length, 1);
});
