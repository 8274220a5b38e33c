import unittest
from fractions import Fraction

from matrix import DimensionError, Matrix, SingularMatrixError


class ArithmeticTest(unittest.TestCase):
    def test_add_and_scale(self):
        a = Matrix([[1, 2], [3, 4]])
        self.assertEqual(a + a, a * 2)

    def test_multiply(self):
        a = Matrix([[1, 2], [3, 4]])
        b = Matrix([[0, 1], [1, 0]])
        self.assertEqual(a * b, Matrix([[2, 1], [4, 3]]))

    def test_shape_mismatch(self):
        with self.assertRaises(DimensionError):
            Matrix([[1, 2]]) * Matrix([[1, 2]])

    def test_transpose(self):
        self.assertEqual(Matrix([[1, 2, 3]]).transpose(), Matrix([[1], [2], [3]]))


class LinearAlgebraTest(unittest.TestCase):
    def test_determinant(self):
        self.assertEqual(Matrix([[2, 0, 1], [1, 3, 2], [1, 1, 2]]).determinant(), Fraction(6))

    def test_inverse(self):
        a = Matrix([[4, 7], [2, 6]])
        self.assertEqual(a * a.inverse(), Matrix.identity(2))

    def test_solve(self):
        self.assertEqual(Matrix([[2, 1], [1, 3]]).solve([3, 5]), [Fraction(4, 5), Fraction(7, 5)])

    def test_singular(self):
        with self.assertRaises(SingularMatrixError):
            Matrix([[1, 2], [2, 4]]).inverse()


if __name__ == "__main__":
    unittest.main()
