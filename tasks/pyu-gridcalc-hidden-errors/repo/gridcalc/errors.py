"""Error values a cell can hold, and the exceptions raised while reading formulas."""


class CellError:
    """An error value such as ``#DIV/0!``; it flows through formulas like any other value."""

    __slots__ = ("code",)

    def __init__(self, code):
        self.code = code

    def __eq__(self, other):
        return isinstance(other, CellError) and other.code == self.code

    def __hash__(self):
        return hash(("CellError", self.code))

    def __repr__(self):
        return f"CellError({self.code!r})"

    def __str__(self):
        return self.code


DIV0 = CellError("#DIV/0!")
VALUE = CellError("#VALUE!")
REF = CellError("#REF!")
NAME = CellError("#NAME?")
NA = CellError("#N/A")
CYCLE = CellError("#CYCLE!")

ERRORS_BY_CODE = {error.code: error for error in (DIV0, VALUE, REF, NAME, NA, CYCLE)}


class ErrorSignal(Exception):
    """Raised inside evaluation to abandon a computation with a :class:`CellError`."""

    def __init__(self, error):
        super().__init__(error.code)
        self.error = error


class FormulaSyntaxError(ValueError):
    """A formula that cannot be read; ``position`` is the offset in the formula text."""

    def __init__(self, message, position):
        super().__init__(f"{message} at position {position}")
        self.position = position
