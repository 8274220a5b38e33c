"""The Matrix type: an immutable grid of Fractions."""
from fractions import Fraction

from .errors import DimensionError, SingularMatrixError


class Matrix:
    """A rows x cols matrix of exact rational numbers."""

    def __init__(self, rows):
        rows = [[Fraction(value) for value in row] for row in rows]
        if not rows or not rows[0]:
            raise DimensionError("a matrix needs at least one row and one column")
        if any(len(row) != len(rows[0]) for row in rows):
            raise DimensionError("all rows must have the same length")
        self._rows = rows

    @classmethod
    def identity(cls, n):
        return cls([[1 if i == j else 0 for j in range(n)] for i in range(n)])

    @property
    def shape(self):
        return len(self._rows), len(self._rows[0])

    def rows(self):
        """A copy of the rows as lists of Fractions."""
        return [list(row) for row in self._rows]

    def __getitem__(self, index):
        i, j = index
        return self._rows[i][j]

    def __eq__(self, other):
        return isinstance(other, Matrix) and self._rows == other._rows

    def __repr__(self):
        return f"Matrix({[[str(v) for v in row] for row in self._rows]})"

    def __add__(self, other):
        if self.shape != other.shape:
            raise DimensionError(f"cannot add {self.shape} and {other.shape}")
        return Matrix([[a + b for a, b in zip(r, s)] for r, s in zip(self._rows, other._rows)])

    def __mul__(self, other):
        if not isinstance(other, Matrix):
            return Matrix([[v * other for v in row] for row in self._rows])
        if self.shape[1] != other.shape[0]:
            raise DimensionError(f"cannot multiply {self.shape} by {other.shape}")
        cols = list(zip(*other._rows))
        return Matrix([[sum(a * b for a, b in zip(row, col)) for col in cols] for row in self._rows])

    __rmul__ = __mul__

    def transpose(self):
        return Matrix([list(col) for col in zip(*self._rows)])

    def _require_square(self, operation):
        if self.shape[0] != self.shape[1]:
            raise DimensionError(f"{operation} needs a square matrix, got {self.shape}")

    def _eliminate(self, augment=None):
        """Gauss-Jordan elimination on a copy of the rows (optionally augmented).

        Returns ``(reduced_rows, determinant)``; the determinant is 0 when a pivot is missing.
        """
        n = self.shape[0]
        rows = self.rows()
        if augment is not None:
            rows = [row + extra for row, extra in zip(rows, augment)]
        det = Fraction(1)
        for col in range(n):
            pivot = next((r for r in range(col, n) if rows[r][col] != 0), None)
            if pivot is None:
                return rows, Fraction(0)
            if pivot != col:
                rows[col], rows[pivot] = rows[pivot], rows[col]
                det = -det
            pivot_value = rows[col][col]
            det *= pivot_value
            rows[col] = [v / pivot_value for v in rows[col]]
            for r in range(n):
                if r != col and rows[r][col] != 0:
                    factor = rows[r][col]
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
        return rows, det

    def determinant(self):
        """Exact determinant of a square matrix."""
        self._require_square("determinant")
        return self._eliminate()[1]

    def inverse(self):
        """The inverse matrix; raises SingularMatrixError when the determinant is 0."""
        self._require_square("inverse")
        n = self.shape[0]
        reduced, det = self._eliminate(Matrix.identity(n).rows())
        if det == 0:
            raise SingularMatrixError("matrix is singular")
        return Matrix([row[n:] for row in reduced])

    def solve(self, b):
        """Solve ``self @ x = b`` for a vector ``b`` (list of numbers); returns a list of Fractions."""
        self._require_square("solve")
        n = self.shape[0]
        if len(b) != n:
            raise DimensionError(f"right-hand side needs {n} values, got {len(b)}")
        reduced, det = self._eliminate([[Fraction(v)] for v in b])
        if det == 0:
            raise SingularMatrixError("system has no unique solution")
        return [row[n] for row in reduced]
