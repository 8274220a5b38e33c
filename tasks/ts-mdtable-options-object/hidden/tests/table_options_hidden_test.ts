import assert from "node:assert/strict";
import { formatTable } from "../src/table.ts";

const rows = [["name", "qty"], ["apple", "3"], ["kiwi", "12"]];

Deno.test("defaults: header row, left aligned, width 3, pipes escaped", () => {
  assert.equal(
    formatTable([["a", "b|c"], ["x", "y"]]),
    "| a   | b\\|c |\n| --- | ---- |\n| x   | y    |",
  );
});

Deno.test("an empty options object uses the defaults", () => {
  assert.equal(formatTable(rows, {}), formatTable(rows));
});

Deno.test("header false writes an empty header row", () => {
  assert.equal(formatTable([["x", "1"]], { header: false }), "|     |     |\n| --- | --- |\n| x   | 1   |");
});

Deno.test("per-column alignment with missing columns left aligned", () => {
  assert.equal(
    formatTable(rows, { align: ["center"] }),
    "| name  | qty |\n| :---: | --- |\n| apple | 3   |\n| kiwi  | 12  |",
  );
});

Deno.test("one alignment for all columns", () => {
  assert.equal(
    formatTable(rows, { align: "right" }),
    "|  name | qty |\n| ----: | --: |\n| apple |   3 |\n|  kiwi |  12 |",
  );
});

Deno.test("minWidth widens narrow columns", () => {
  assert.equal(formatTable([["id"], ["7"]], { minWidth: 5 }), "| id    |\n| ----- |\n| 7     |");
});

Deno.test("escapePipes false keeps cells as written", () => {
  assert.equal(formatTable([["a|b"]], { escapePipes: false, header: true }), "| a|b |\n| --- |");
});

Deno.test("no rows give an empty string", () => {
  assert.equal(formatTable([], { header: true }), "");
});
