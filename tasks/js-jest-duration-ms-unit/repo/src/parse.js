"use strict";
const { UNITS, unitOf } = require("./units");
const { DurationError } = require("./errors");

// One part: a number and a unit symbol.
const PART = new RegExp(`(\\d+(?:\\.\\d+)?)\\s*(${UNITS.map((u) => u.symbol).join("|")})`, "y");

/** Milliseconds in a duration such as "1h30m" or "2.5s". */
function parse(text) {
  if (typeof text !== "string") throw new TypeError("duration must be a string");
  const source = text.trim();
  if (source === "") throw new DurationError(text, "it is empty");
  let total = 0;
  let at = 0;
  while (at < source.length) {
    if (/\s/.test(source[at])) {
      at++;
      continue;
    }
    PART.lastIndex = at;
    const match = PART.exec(source);
    if (match === null) {
      throw new DurationError(text, `unexpected "${source.slice(at)}"`);
    }
    total += Number(match[1]) * unitOf(match[2]).ms;
    at = PART.lastIndex;
  }
  return Math.round(total);
}

module.exports = { parse };
