"""Errors raised by the sparse package."""


class ShapeError(ValueError):
    """Operands have incompatible shapes, or an index is outside the matrix."""
