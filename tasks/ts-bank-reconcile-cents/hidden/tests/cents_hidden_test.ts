import assert from "node:assert/strict";
import { normalizeLedger, parseAmount, readStatement, reconcile, renderReport, summarize } from "../src/mod.ts";

Deno.test("parseAmount keeps every cent of 4.35", () => {
  assert.equal(parseAmount("4.35"), 435);
});

Deno.test("parseAmount keeps every cent of 0.29", () => {
  assert.equal(parseAmount("0.29"), 29);
});

Deno.test("parseAmount keeps every cent of debits", () => {
  assert.equal(parseAmount("8.20 DR"), -820);
  assert.equal(parseAmount("(1.15)"), -115);
});

Deno.test("parseAmount agrees with a cent count for every amount under ten", () => {
  const wrong: string[] = [];
  for (let cents = 0; cents < 1000; cents++) {
    const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
    if (parseAmount(text) !== cents) wrong.push(text);
  }
  assert.deepEqual(wrong, []);
});

const statement = readStatement(`Date,Description,Amount,Reference
08/03/2024,CARD COFFEE BAR,(4.35),
08/03/2024,CARD NEWSAGENT,-1.15,
09/03/2024,BANK INTEREST,0.29 CR,
11/03/2024,REFUND PARKING,12.00,
`);

const ledger = normalizeLedger([
  { id: "L1", date: "2024-03-08", memo: "Coffee", amount: -435 },
  { id: "L2", date: "2024-03-07", memo: "Newspaper", amount: -115 },
  { id: "L3", date: "2024-03-09", memo: "Interest", amount: 29 },
  { id: "L4", date: "2024-03-10", memo: "Parking refund", amount: 1200 },
]);

Deno.test("reconcile matches small card payments", () => {
  assert.deepEqual(reconcile(statement, ledger).matches.map((m) => m.entryId), ["L1", "L2", "L3", "L4"]);
});

Deno.test("reconcile leaves nothing open when everything is booked", () => {
  assert.deepEqual(summarize(reconcile(statement, ledger)), { matched: 4, openLines: 0, openEntries: 0, difference: 0 });
});

Deno.test("renderReport shows the exact open amount", () => {
  const lines = readStatement("Date,Description,Amount,Reference\n01/03/2024,FEE,(0.57),\n");
  assert.equal(renderReport(reconcile(lines, [])).split("\n")[3], "  bank B1 2024-03-01 -0.57 FEE");
});

Deno.test("reconcile still matches round amounts", () => {
  const lines = readStatement("Date,Description,Amount,Reference\n01/03/2024,RENT,(2000.00),\n");
  assert.equal(reconcile(lines, [{ id: "L1", date: "2024-03-01", memo: "Rent", amount: -200000 }]).matches.length, 1);
});
