"use strict";

/** Milliseconds in one of each unit, largest first. */
const UNITS = [
  { symbol: "d", ms: 86_400_000, word: "day" },
  { symbol: "h", ms: 3_600_000, word: "hour" },
  { symbol: "m", ms: 60_000, word: "minute" },
  { symbol: "s", ms: 1_000, word: "second" },
  { symbol: "ms", ms: 1, word: "millisecond" },
];

const BY_SYMBOL = new Map(UNITS.map((u) => [u.symbol, u]));

function unitOf(symbol) {
  return BY_SYMBOL.get(symbol) ?? null;
}

module.exports = { UNITS, unitOf };
