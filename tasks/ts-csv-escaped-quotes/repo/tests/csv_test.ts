import assert from "node:assert/strict";
import { parseCsv, readRecords } from "../src/reader.ts";
import { formatField, writeRecords } from "../src/writer.ts";
import { CsvError } from "../src/lexer.ts";

Deno.test("parses simple rows with CRLF", () => {
  assert.deepEqual(parseCsv("a,b\r\n1,2\r\n"), [["a", "b"], ["1", "2"]]);
});

Deno.test("quoted fields keep delimiters and newlines", () => {
  assert.deepEqual(parseCsv('name,bio\n"Doe, J","line1\nline2"\n'), [
    ["name", "bio"],
    ["Doe, J", "line1\nline2"],
  ]);
});

Deno.test("reads records keyed by header", () => {
  const text = "id;city\n1;Oslo\n\n2;Bergen\n";
  assert.deepEqual(readRecords(text, { delimiter: ";" }), [
    { id: "1", city: "Oslo" },
    { id: "2", city: "Bergen" },
  ]);
});

Deno.test("ragged rows are reported with their line", () => {
  assert.throws(() => readRecords("a,b\n1,2\n3\n"), (e: unknown) => e instanceof CsvError && e.line === 3);
});

Deno.test("writer quotes only when needed", () => {
  assert.equal(formatField("plain"), "plain");
  assert.equal(formatField("a,b"), '"a,b"');
  assert.equal(formatField(' pad'), '" pad"');
  assert.equal(writeRecords([{ x: 1, y: null }], undefined, { newline: "\n" }), "x,y\n1,\n");
});
