import assert from "node:assert/strict";
import { daysBetween, normalizeLedger, parseDate, readCsv, readStatement } from "../src/mod.ts";

Deno.test("readCsv handles quotes and CRLF", () => {
  assert.deepEqual(readCsv('A,B\r\n"x, y","say ""hi"""\r\n\r\n'), [{ A: "x, y", B: 'say "hi"' }]);
});

Deno.test("readStatement parses bank exports", () => {
  const lines = readStatement('Date,Description,Amount,Reference\n03/02/2024,"ACME LTD, INV",1500.00,INV-7\n');
  assert.deepEqual(lines, [{ id: "B1", date: "2024-02-03", description: "ACME LTD, INV", amount: 150000, reference: "INV-7" }]);
});

Deno.test("parseDate and daysBetween", () => {
  assert.equal(parseDate("1/3/2024"), "2024-03-01");
  assert.equal(daysBetween("2024-02-27", "2024-03-01"), 3);
});

Deno.test("normalizeLedger rejects fractional cents", () => {
  assert.throws(() => normalizeLedger([{ id: "L1", date: "2024-01-01", memo: "", amount: 1.5 }]), /integer cents/);
});
