"""Read and write sheets as CSV."""

import csv
import io

from .formatting import format_value
from .refs import index_to_column
from .sheet import Sheet


def export_inputs(sheet):
    """CSV of what was typed in each cell, formulas included; reading it back restores the sheet."""
    return _write(sheet, lambda key: sheet.input(key))


def export_values(sheet, header=False, formatted=True):
    """CSV of what each cell shows; ``header=True`` adds a first row of column letters.

    ``formatted=False`` ignores the cells' number patterns.
    """
    def cell(key):
        if formatted:
            return sheet.display(key)
        return format_value(sheet.get(key))

    columns = sheet.used_size()[0]
    head = [index_to_column(col) for col in range(columns)] if header else None
    return _write(sheet, cell, head)


def _write(sheet, text_of, head=None):
    columns, rows = sheet.used_size()
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    if head is not None:
        writer.writerow(head)
    for row in range(rows):
        writer.writerow([text_of((col, row)) for col in range(columns)])
    return out.getvalue()


def import_csv(text, name="Sheet1"):
    """A new sheet holding the CSV's fields as typed input, the first row as row 1."""
    sheet = Sheet(name)
    inputs = {}
    for row, fields in enumerate(csv.reader(io.StringIO(text))):
        for col, field in enumerate(fields):
            if field != "":
                inputs[(col, row)] = field
    sheet.load(inputs)
    return sheet
