"""The storage class: only non-zero entries are kept, keyed by ``(row, col)``."""
from .errors import ShapeError


class SparseMatrix:
    """A ``rows x cols`` matrix that stores its non-zero entries in a dict.

    Invariant: ``_data`` never holds a zero value, so ``nnz`` is the number of non-zero
    entries and two matrices are equal exactly when their shapes and ``_data`` are.
    """

    def __init__(self, rows, cols):
        if rows < 0 or cols < 0:
            raise ShapeError(f"negative shape ({rows}, {cols})")
        self.rows = rows
        self.cols = cols
        self._data = {}

    @property
    def shape(self):
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def nnz(self):
        """Number of stored (non-zero) entries."""
        return len(self._data)

    def _check(self, key):
        row, col = key
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ShapeError(f"index ({row}, {col}) outside a {self.rows}x{self.cols} matrix")
        return row, col

    def __getitem__(self, key):
        return self._data.get(self._check(key), 0)

    def __setitem__(self, key, value):
        key = self._check(key)
        self._data[key] = value

    def items(self):
        """``((row, col), value)`` pairs of the non-zero entries, in row-major order."""
        return sorted(self._data.items())

    def copy(self):
        """An independent copy."""
        other = SparseMatrix(self.rows, self.cols)
        other._data = dict(self._data)
        return other

    def __repr__(self):
        return f"SparseMatrix({self.rows}, {self.cols}, nnz={self.nnz})"
