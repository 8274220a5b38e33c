"""Matrix errors."""


class DimensionError(ValueError):
    """Operand shapes do not fit the operation."""


class SingularMatrixError(ArithmeticError):
    """The matrix has no inverse (its determinant is zero)."""
