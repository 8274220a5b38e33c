"""A sheet: what was typed in each cell, the values computed from it, and recalculation."""

import re

from . import parser, rewrite
from .deps import DependencyGraph
from .errors import CYCLE
from .evaluator import Evaluator
from .formatting import format_value
from .nodes import referenced_keys, used_names
from .refs import AddressError, cell_key, key_to_address, parse_range, parse_ref
from .values import parse_input

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")


class Sheet:
    """Cells addressed as ``"B3"`` (or ``(col, row)`` keys, zero-based).

    Setting a cell recomputes every formula that depends on it. Formulas start with ``=``;
    a formula that cannot be parsed raises :class:`~gridcalc.errors.FormulaSyntaxError` and
    leaves the cell unchanged.
    """

    def __init__(self, name="Sheet1"):
        self.name = name
        self._inputs = {}
        self._formulas = {}
        self._values = {}
        self._formats = {}
        self._names = {}
        self._graph = DependencyGraph()
        self._evaluator = Evaluator(self._values.get, self._names)

    # -- reading -----------------------------------------------------------------

    def get(self, address):
        """The value of a cell (``None`` when empty)."""
        return self._values.get(cell_key(address))

    def input(self, address):
        """What was typed in a cell (``""`` when empty)."""
        return self._inputs.get(cell_key(address), "")

    def display(self, address):
        """The text the cell shows, using its number format if it has one."""
        key = cell_key(address)
        return format_value(self._values.get(key), self._formats.get(key))

    def is_formula(self, address):
        return cell_key(address) in self._formulas

    def keys(self):
        """The keys of all non-empty cells, row by row."""
        return sorted(self._inputs, key=lambda key: (key[1], key[0]))

    def used_size(self):
        """``(columns, rows)`` of the smallest block from A1 holding every non-empty cell."""
        if not self._inputs:
            return (0, 0)
        return (max(c for c, _ in self._inputs) + 1, max(r for _, r in self._inputs) + 1)

    def precedents(self, address):
        """Addresses the formula in a cell reads, sorted."""
        return sorted(key_to_address(k) for k in self._graph.precedents(cell_key(address)))

    # -- writing -----------------------------------------------------------------

    def set(self, address, raw):
        """Type ``raw`` into a cell: a formula (``=...``), a constant, or ``""`` to clear it."""
        key = cell_key(address)
        raw = str(raw)
        if raw.startswith("=") and len(raw) > 1:
            tree = parser.parse(raw[1:])
            self._inputs[key] = raw
            self._formulas[key] = tree
            self._graph.set_precedents(key, referenced_keys(tree, self._names))
        else:
            value = parse_input(raw)
            self._formulas.pop(key, None)
            self._graph.set_precedents(key, ())
            if value is None:
                self._inputs.pop(key, None)
                self._values.pop(key, None)
            else:
                self._inputs[key] = raw
                self._values[key] = value
        self._recalculate([key])

    def clear(self, address):
        """Empty a cell (its number format stays)."""
        self.set(address, "")

    def set_format(self, address, pattern):
        """Give a cell a number pattern (see :mod:`gridcalc.formatting`); None removes it."""
        key = cell_key(address)
        if pattern is None:
            self._formats.pop(key, None)
        else:
            self._formats[key] = pattern

    def format_of(self, address):
        return self._formats.get(cell_key(address))

    def define_name(self, name, reference):
        """Let formulas use ``name`` (any case) for a cell or range, e.g. ``("rates", "B1:B5")``.

        Redefining a name moves it; formulas using it are recomputed. A name must start with a
        letter or ``_``, may hold letters, digits, ``_`` and ``.``, and must not read as a cell
        address or a boolean; otherwise ``ValueError``.
        """
        if not _NAME.match(name) or name.upper() in ("TRUE", "FALSE") or _is_address(name):
            raise ValueError(f"not a valid name: {name!r}")
        self._names[name.upper()] = parse_range(reference)
        self._refresh_names({name.upper()})

    def remove_name(self, name):
        """Forget a name; formulas using it show ``#NAME?``."""
        if self._names.pop(name.upper(), None) is not None:
            self._refresh_names({name.upper()})

    def names(self):
        """``{NAME: reference}`` of the defined names, e.g. ``{"RATES": "B1:B5", "TAX": "$D$1"}``."""
        return {
            name: str(rng.start) if rng.start == rng.end else str(rng)
            for name, rng in sorted(self._names.items())
        }

    def _refresh_names(self, changed_names):
        users = [key for key, tree in self._formulas.items() if used_names(tree) & changed_names]
        for key in users:
            self._graph.set_precedents(key, referenced_keys(self._formulas[key], self._names))
        self._recalculate(users)

    def copy(self, source, target):
        """Copy a cell's input to another cell, moving relative references in formulas."""
        src, dst = cell_key(source), cell_key(target)
        raw = self._inputs.get(src, "")
        if src in self._formulas:
            raw = "=" + rewrite.shift_formula(raw[1:], dst[0] - src[0], dst[1] - src[1])
        if src in self._formats:
            self._formats[dst] = self._formats[src]
        self.set(dst, raw)

    def fill_down(self, source, count):
        """Copy a cell into the ``count`` cells below it."""
        col, row = cell_key(source)
        for offset in range(1, count + 1):
            self.copy((col, row), (col, row + offset))

    def fill_right(self, source, count):
        """Copy a cell into the ``count`` cells to its right."""
        col, row = cell_key(source)
        for offset in range(1, count + 1):
            self.copy((col, row), (col + offset, row))

    def insert_rows(self, at, count=1):
        """Insert ``count`` empty rows before row number ``at`` (1-based, as shown)."""
        index = at - 1
        self._restructure(
            lambda key: (key[0], key[1] + count) if key[1] >= index else key,
            lambda formula: rewrite.insert_rows_in_formula(formula, index, count),
        )

    def delete_rows(self, at, count=1):
        """Delete ``count`` rows starting at row number ``at`` (1-based); rows below move up."""
        index = at - 1

        def move(key):
            if key[1] < index:
                return key
            if key[1] < index + count:
                return None
            return (key[0], key[1] - count)

        self._restructure(move, lambda formula: rewrite.delete_rows_in_formula(formula, index, count))

    def _restructure(self, move, rewrite_formula):
        inputs = {}
        formats = {}
        for key, raw in self._inputs.items():
            new_key = move(key)
            if new_key is None:
                continue
            if key in self._formulas:
                raw = "=" + rewrite_formula(raw[1:])
            inputs[new_key] = raw
        for key, pattern in self._formats.items():
            new_key = move(key)
            if new_key is not None:
                formats[new_key] = pattern
        self.load(inputs)
        self._formats = formats

    def load(self, inputs):
        """Replace the whole content with ``{address: raw}`` and compute every value once."""
        self._inputs.clear()
        self._formulas.clear()
        self._values.clear()
        self._graph = DependencyGraph()
        for address, raw in inputs.items():
            key = cell_key(address)
            raw = str(raw)
            if raw.startswith("=") and len(raw) > 1:
                tree = parser.parse(raw[1:])
                self._formulas[key] = tree
                self._graph.set_precedents(key, referenced_keys(tree, self._names))
                self._inputs[key] = raw
            else:
                value = parse_input(raw)
                if value is not None:
                    self._inputs[key] = raw
                    self._values[key] = value
        self._recalculate(list(self._formulas))

    # -- recalculation -----------------------------------------------------------

    def _recalculate(self, changed):
        cyclic = self._graph.cyclic_cells()
        for key in self._graph.recalc_order(changed):
            if key in cyclic:
                self._values[key] = CYCLE
            elif key in self._formulas:
                self._values[key] = self._evaluator.evaluate(self._formulas[key])

    def __repr__(self):
        return f"Sheet({self.name!r}, {len(self._inputs)} cells)"


def _is_address(text):
    try:
        parse_ref(text)
    except AddressError:
        return False
    return True
