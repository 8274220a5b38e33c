import assert from "node:assert/strict";
import { csvToMarkdown, parseCsv } from "../src/csv.ts";

Deno.test("parseCsv handles quotes", () => {
  assert.deepEqual(parseCsv('a,"b, c","say ""hi"""\n1,2,3\n'), [["a", "b, c", 'say "hi"'], ["1", "2", "3"]]);
});

Deno.test("csvToMarkdown right-aligns numeric columns", () => {
  assert.equal(
    csvToMarkdown("city,pop\nOslo,709000\nBergen,291000\n"),
    "| city   |    pop |\n| ------ | -----: |\n| Oslo   | 709000 |\n| Bergen | 291000 |",
  );
});

Deno.test("csvToMarkdown escapes pipes", () => {
  assert.equal(csvToMarkdown("expr\na|b\n"), "| expr |\n| ---- |\n| a\\|b |");
});
