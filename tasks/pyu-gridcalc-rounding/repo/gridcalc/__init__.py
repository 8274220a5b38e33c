"""gridcalc: a small spreadsheet engine.

>>> from gridcalc import Sheet
>>> sheet = Sheet()
>>> sheet.set("A1", "2"); sheet.set("A2", "=A1*21")
>>> sheet.get("A2")
42.0
"""

from .errors import CellError, FormulaSyntaxError
from .sheet import Sheet

__all__ = ["CellError", "FormulaSyntaxError", "Sheet"]
