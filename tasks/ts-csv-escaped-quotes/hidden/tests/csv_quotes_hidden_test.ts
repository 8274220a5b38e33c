import assert from "node:assert/strict";
import { parseCsv, readRecords } from "../src/reader.ts";
import { writeRecords } from "../src/writer.ts";
import { CsvError } from "../src/lexer.ts";

Deno.test("doubled quotes inside a quoted field become one quote", () => {
  assert.deepEqual(parseCsv('"say ""hi""",x\n'), [['say "hi"', "x"]]);
});

Deno.test("records round-trip through the writer", () => {
  const records = [
    { id: "1", quote: 'He said "no", twice' },
    { id: "2", quote: '""' },
  ];
  assert.deepEqual(readRecords(writeRecords(records)), records);
});

Deno.test("a field that is only an escaped quote", () => {
  assert.deepEqual(parseCsv('a,"""",b'), [["a", '"', "b"]]);
});

Deno.test("text after a closing quote is still an error", () => {
  assert.throws(() => parseCsv('"ab"c,d'), CsvError);
});

Deno.test("unterminated quotes are an error", () => {
  assert.throws(() => parseCsv('a,"open\n'), CsvError);
});
