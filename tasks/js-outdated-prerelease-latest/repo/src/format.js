const COLUMNS = [
  ["Package", (row) => row.name + (row.dev ? " (dev)" : "")],
  ["Current", (row) => row.current ?? "-"],
  ["Wanted", (row) => row.wanted ?? "-"],
  ["Latest", (row) => row.latest ?? "-"],
  ["Type", (row) => row.type],
];

/** The rows as an aligned text table, one line each, header first. */
export function formatTable(rows) {
  const cells = [COLUMNS.map(([title]) => title), ...rows.map((row) => COLUMNS.map(([, get]) => get(row)))];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
  return cells.map((line) =>
    line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] + 2))).join("")
  ).join("\n");
}
