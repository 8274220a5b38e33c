"""Exact matrix arithmetic over fractions."""
from .core import Matrix
from .errors import DimensionError, SingularMatrixError

__all__ = ["DimensionError", "Matrix", "SingularMatrixError"]
