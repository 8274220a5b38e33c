"""Cell addresses and ranges as they appear in formulas: ``B7``, ``$A$1``, ``A1:C3``.

Columns and rows are stored zero-based; ``A1`` is column 0, row 0. A ``$`` in front of the
column letters or the row number makes that part absolute: it stays put when a formula is
copied to another cell.
"""

import re
from dataclasses import dataclass

MAX_COLUMNS = 16_384
MAX_ROWS = 1_048_576

_ADDRESS = re.compile(r"^(\$?)([A-Za-z]+)(\$?)([0-9]+)$")


class AddressError(ValueError):
    """Raised for text that is not a cell address or range, or one outside the sheet."""


def column_to_index(letters):
    """Return the zero-based index of column ``letters`` (``"A"`` -> 0, ``"AA"`` -> 26)."""
    if not letters or not letters.isalpha():
        raise AddressError(f"not a column name: {letters!r}")
    index = 0
    for char in letters.upper():
        index = index * 26 + (ord(char) - ord("A") + 1)
    return index - 1


def index_to_column(index):
    """Return the column letters of zero-based column ``index`` (26 -> ``"AA"``)."""
    if index < 0:
        raise AddressError(f"negative column index: {index}")
    letters = ""
    n = index + 1
    while n:
        n, rest = divmod(n - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True, order=True)
class CellRef:
    """A reference to one cell, remembering which parts are absolute."""

    col: int
    row: int
    col_abs: bool = False
    row_abs: bool = False

    def __post_init__(self):
        if not 0 <= self.col < MAX_COLUMNS or not 0 <= self.row < MAX_ROWS:
            raise AddressError(f"cell outside the sheet: column {self.col}, row {self.row}")

    @property
    def key(self):
        """The ``(col, row)`` pair a sheet stores the cell under."""
        return (self.col, self.row)

    def shifted(self, dcol, drow):
        """Return this reference moved by ``dcol`` columns and ``drow`` rows.

        Absolute parts do not move. Raises :class:`AddressError` when the result would
        fall off the sheet.
        """
        col = self.col if self.col_abs else self.col + dcol
        row = self.row if self.row_abs else self.row + drow
        return CellRef(col, row, self.col_abs, self.row_abs)

    def __str__(self):
        return (
            ("$" if self.col_abs else "")
            + index_to_column(self.col)
            + ("$" if self.row_abs else "")
            + str(self.row + 1)
        )


def parse_ref(text):
    """Parse ``"B7"`` or ``"$B$7"`` into a :class:`CellRef`."""
    match = _ADDRESS.match(text.strip())
    if not match:
        raise AddressError(f"not a cell address: {text!r}")
    col_dollar, letters, row_dollar, digits = match.groups()
    row = int(digits) - 1
    if row < 0:
        raise AddressError(f"row numbers start at 1: {text!r}")
    return CellRef(column_to_index(letters), row, bool(col_dollar), bool(row_dollar))


def cell_key(address):
    """Return the ``(col, row)`` key of an address given as text, a key or a :class:`CellRef`."""
    if isinstance(address, CellRef):
        return address.key
    if isinstance(address, tuple):
        return address
    return parse_ref(address).key


def key_to_address(key):
    """Return the plain address text (``"C4"``) of a ``(col, row)`` key."""
    col, row = key
    return f"{index_to_column(col)}{row + 1}"


@dataclass(frozen=True)
class RangeRef:
    """A rectangular block of cells between two corners, both included."""

    start: CellRef
    end: CellRef

    @classmethod
    def from_corners(cls, first, second):
        """Build a range from any two opposite corners, keeping each side's ``$`` flags."""
        if first.col <= second.col:
            left_col, left_abs, right_col, right_abs = first.col, first.col_abs, second.col, second.col_abs
        else:
            left_col, left_abs, right_col, right_abs = second.col, second.col_abs, first.col, first.col_abs
        if first.row <= second.row:
            top_row, top_abs, bottom_row, bottom_abs = first.row, first.row_abs, second.row, second.row_abs
        else:
            top_row, top_abs, bottom_row, bottom_abs = second.row, second.row_abs, first.row, first.row_abs
        return cls(
            CellRef(left_col, top_row, left_abs, top_abs),
            CellRef(right_col, bottom_row, right_abs, bottom_abs),
        )

    @property
    def width(self):
        return self.end.col - self.start.col + 1

    @property
    def height(self):
        return self.end.row - self.start.row + 1

    def keys(self):
        """Yield the ``(col, row)`` keys of the range, row by row."""
        for row in range(self.start.row, self.end.row + 1):
            for col in range(self.start.col, self.end.col + 1):
                yield (col, row)

    def __contains__(self, key):
        col, row = key
        return self.start.col <= col <= self.end.col and self.start.row <= row <= self.end.row

    def __str__(self):
        return f"{self.start}:{self.end}"


def parse_range(text):
    """Parse ``"A1:C3"`` (or a single address, a one-cell range) into a :class:`RangeRef`."""
    first, sep, second = text.strip().partition(":")
    start = parse_ref(first)
    end = parse_ref(second) if sep else start
    return RangeRef.from_corners(start, end)
