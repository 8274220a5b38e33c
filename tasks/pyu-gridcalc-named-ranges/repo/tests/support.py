"""Helpers shared by the tests."""

from gridcalc import Sheet


def sheet_with(cells):
    """A sheet holding ``{address: raw input}``."""
    sheet = Sheet()
    for address, raw in cells.items():
        sheet.set(address, raw)
    return sheet


def evaluate(formula, cells=None):
    """The value of ``formula`` typed into Z99 of a sheet holding ``cells``."""
    sheet = sheet_with(cells or {})
    sheet.set("Z99", formula)
    return sheet.get("Z99")


def code(value):
    """The code of an error value (``"#DIV/0!"``); any other value as it is."""
    return getattr(value, "code", value)
