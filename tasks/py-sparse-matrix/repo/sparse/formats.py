"""Conversions between :class:`SparseMatrix` and other representations."""
from .storage import SparseMatrix


def from_dense(rows):
    """A sparse matrix from a list of equal-length lists."""
    width = len(rows[0]) if rows else 0
    result = SparseMatrix(len(rows), width)
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            if value:
                result[i, j] = value
    return result


def to_dense(matrix):
    """A list of lists with every entry, zeros included."""
    dense = [[0] * matrix.cols for _ in range(matrix.rows)]
    for (row, col), value in matrix.items():
        dense[row][col] = value
    return dense


def from_triplets(rows, cols, triplets):
    """A matrix from ``(row, col, value)`` triplets; duplicates are summed (COO semantics)."""
    result = SparseMatrix(rows, cols)
    for row, col, value in triplets:
        result[row, col] = result[row, col] + value
    return result


def to_csr(matrix):
    """Compressed sparse row arrays ``(indptr, indices, values)``.

    ``indptr`` has ``rows + 1`` entries; the non-zeros of row ``i`` are
    ``indices[indptr[i]:indptr[i + 1]]`` / ``values[...]``.
    """
    indptr = [0] * (matrix.rows + 1)
    indices = []
    values = []
    for (row, col), value in matrix.items():
        indptr[row + 1] += 1
        indices.append(col)
        values.append(value)
    for i in range(matrix.rows):
        indptr[i + 1] += indptr[i]
    return indptr, indices, values
