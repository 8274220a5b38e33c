"""sparse: a dictionary-of-keys sparse matrix with the usual arithmetic and CSR export."""
from .errors import ShapeError
from .formats import from_dense, from_triplets, to_csr, to_dense
from .ops import add, equals, matmul, scale, subtract, transpose
from .storage import SparseMatrix

__all__ = [
    "ShapeError", "SparseMatrix", "add", "equals", "from_dense", "from_triplets", "matmul",
    "scale", "subtract", "to_csr", "to_dense", "transpose",
]
