"""Arithmetic on :class:`SparseMatrix`; every function returns a new matrix."""
from .errors import ShapeError
from .storage import SparseMatrix


def _same_shape(a, b, what):
    if a.shape != b.shape:
        raise ShapeError(f"cannot {what} {a.rows}x{a.cols} and {b.rows}x{b.cols}")


def add(a, b):
    """``a + b``."""
    _same_shape(a, b, "add")
    result = a.copy()
    for (row, col), value in b.items():
        result[row, col] = result[row, col] + value
    return result


def scale(a, factor):
    """``factor * a``."""
    result = SparseMatrix(a.rows, a.cols)
    for (row, col), value in a.items():
        result[row, col] = value * factor
    return result


def subtract(a, b):
    """``a - b``."""
    return add(a, scale(b, -1))


def transpose(a):
    """The transpose of ``a``."""
    result = SparseMatrix(a.cols, a.rows)
    for (row, col), value in a.items():
        result[col, row] = value
    return result


def matmul(a, b):
    """The matrix product ``a @ b``; only pairs of non-zero entries are visited."""
    if a.cols != b.rows:
        raise ShapeError(f"cannot multiply {a.rows}x{a.cols} by {b.rows}x{b.cols}")
    by_row = {}
    for (row, col), value in b.items():
        by_row.setdefault(row, []).append((col, value))
    result = SparseMatrix(a.rows, b.cols)
    for (i, k), left in a.items():
        for j, right in by_row.get(k, []):
            result[i, j] = result[i, j] + left * right
    return result


def equals(a, b):
    """True when ``a`` and ``b`` have the same shape and entries."""
    return a.shape == b.shape and a.items() == b.items()
