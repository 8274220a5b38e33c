"use strict";
const { CsvError } = require("./errors");

/** Objects keyed by the first row's names. */
function toRecords(rows) {
  if (rows.length === 0) return [];
  const [header, ...body] = rows;
  return body.map((row, index) => {
    if (row.length !== header.length) {
      throw new CsvError(index + 2, `expected ${header.length} fields, found ${row.length}`);
    }
    return Object.fromEntries(header.map((name, k) => [name, row[k]]));
  });
}

/** Rows (a header first) from objects, with the keys of the first object as columns. */
function fromRecords(records) {
  if (records.length === 0) return [];
  const header = Object.keys(records[0]);
  return [header, ...records.map((r) => header.map((name) => r[name]))];
}

module.exports = { toRecords, fromRecords };
