"""Command line: ``python3 -m gridcalc sheet.csv`` prints the computed sheet as a table.

The CSV holds what was typed in each cell (formulas included), as :func:`gridcalc.csvio.import_csv`
reads it. ``--csv`` prints the computed values as CSV instead of a table; ``--cell B3`` prints one
cell's value.
"""

import argparse
import sys

from .csvio import export_values, import_csv
from .errors import FormulaSyntaxError
from .refs import AddressError, index_to_column


def render_table(sheet):
    """The sheet's displayed values as a text table with column letters and row numbers.

    Numbers are aligned right, everything else left, as spreadsheets show them.
    """
    columns, rows = sheet.used_size()
    if not columns:
        return ""
    grid = [[("", True)] + [(index_to_column(col), False) for col in range(columns)]]
    for row in range(rows):
        line = [(str(row + 1), True)]
        for col in range(columns):
            line.append((sheet.display((col, row)), isinstance(sheet.get((col, row)), float)))
        grid.append(line)
    widths = [max(len(line[i][0]) for line in grid) for i in range(columns + 1)]
    return "".join(
        "  ".join(
            text.rjust(width) if right else text.ljust(width)
            for (text, right), width in zip(line, widths)
        ).rstrip() + "\n"
        for line in grid
    )


def main(argv=None, stdout=sys.stdout):
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="gridcalc", description="Compute a CSV spreadsheet.")
    parser.add_argument("file", help="CSV file of cell inputs ('-' for standard input)")
    parser.add_argument("--csv", action="store_true", help="print computed values as CSV")
    parser.add_argument("--cell", help="print only the value of this cell")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8", newline="") as handle:
                text = handle.read()
        sheet = import_csv(text)
        if args.cell:
            stdout.write(sheet.display(args.cell) + "\n")
        elif args.csv:
            stdout.write(export_values(sheet))
        else:
            stdout.write(render_table(sheet))
    except (OSError, FormulaSyntaxError, AddressError) as error:
        print(f"gridcalc: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
