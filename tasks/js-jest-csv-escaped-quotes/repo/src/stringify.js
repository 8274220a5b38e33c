"use strict";

const NEEDS_QUOTES = /[",\r\n]/;

function field(value) {
  const text = value === null || value === undefined ? "" : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of rows of fields, each row ended by "\n". */
function stringify(rows) {
  return rows.map((row) => row.map(field).join(",") + "\n").join("");
}

module.exports = { stringify };
