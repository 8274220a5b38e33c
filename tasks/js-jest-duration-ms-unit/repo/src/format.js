"use strict";
const { UNITS } = require("./units");

function parts(ms) {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError("duration must be a finite, non-negative number");
  let left = Math.round(ms);
  const out = [];
  for (const unit of UNITS) {
    const count = Math.floor(left / unit.ms);
    if (count > 0) out.push({ unit, count });
    left -= count * unit.ms;
  }
  return out;
}

/** A duration in milliseconds as "1h30m". */
function format(ms) {
  const list = parts(ms);
  if (list.length === 0) return "0ms";
  return list.map((p) => `${p.count}${p.unit.symbol}`).join("");
}

/** A duration in milliseconds as "1 hour 30 minutes". */
function humanize(ms) {
  const list = parts(ms);
  if (list.length === 0) return "0 milliseconds";
  return list.map((p) => `${p.count} ${p.unit.word}${p.count === 1 ? "" : "s"}`).join(" ");
}

module.exports = { format, humanize };
