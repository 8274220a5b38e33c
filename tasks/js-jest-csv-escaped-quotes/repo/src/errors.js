"use strict";

class CsvError extends Error {
  constructor(line, detail) {
    super(`CSV line ${line}: ${detail}`);
    this.name = "CsvError";
    this.line = line;
  }
}

module.exports = { CsvError };
