import importlib
import unittest
from fractions import Fraction
from unittest import mock

import matrix
from matrix import DimensionError, Matrix, SingularMatrixError


class LinalgModuleTest(unittest.TestCase):
    def setUp(self):
        self.linalg = importlib.import_module("matrix.linalg")

    def test_functions_on_matrices(self):
        a = Matrix([[2, 0, 1], [1, 3, 2], [1, 1, 2]])
        self.assertEqual(self.linalg.determinant(a), Fraction(6))
        self.assertEqual(a * self.linalg.inverse(a), Matrix.identity(3))
        self.assertEqual(self.linalg.solve(Matrix([[2, 1], [1, 3]]), [3, 5]), [Fraction(4, 5), Fraction(7, 5)])

    def test_errors_unchanged(self):
        with self.assertRaises(SingularMatrixError):
            self.linalg.inverse(Matrix([[1, 2], [2, 4]]))
        with self.assertRaises(SingularMatrixError):
            self.linalg.solve(Matrix([[1, 1], [1, 1]]), [1, 2])
        with self.assertRaises(DimensionError):
            self.linalg.determinant(Matrix([[1, 2, 3]]))
        with self.assertRaises(DimensionError):
            self.linalg.solve(Matrix.identity(2), [1, 2, 3])

    def test_inverse_returns_matrix(self):
        self.assertIsInstance(self.linalg.inverse(Matrix([[2]])), Matrix)
        self.assertEqual(self.linalg.inverse(Matrix([[2]])), Matrix([[Fraction(1, 2)]]))

    def test_reexported_from_package(self):
        self.assertIs(matrix.determinant, self.linalg.determinant)
        self.assertIs(matrix.inverse, self.linalg.inverse)
        self.assertIs(matrix.solve, self.linalg.solve)


class MethodsDelegateTest(unittest.TestCase):
    def test_determinant_delegates(self):
        with mock.patch("matrix.linalg.determinant", return_value=Fraction(42)) as fake:
            self.assertEqual(Matrix([[1, 2], [3, 4]]).determinant(), 42)
        fake.assert_called_once()

    def test_inverse_delegates(self):
        sentinel = object()
        with mock.patch("matrix.linalg.inverse", return_value=sentinel) as fake:
            self.assertIs(Matrix([[1, 2], [3, 4]]).inverse(), sentinel)
        fake.assert_called_once()

    def test_solve_delegates(self):
        with mock.patch("matrix.linalg.solve", return_value=[7]) as fake:
            self.assertEqual(Matrix([[1]]).solve([1]), [7])
        fake.assert_called_once()

    def test_no_elimination_left_in_core(self):
        self.assertFalse(hasattr(Matrix, "_eliminate"))


class BehaviourUnchangedTest(unittest.TestCase):
    def test_methods_still_work(self):
        a = Matrix([[0, 1], [1, 0]])
        self.assertEqual(a.determinant(), -1)
        self.assertEqual(a.inverse(), a)
        self.assertEqual(Matrix([[1, 2], [3, 5]]).solve([1, 2]), [Fraction(-1), Fraction(1)])

    def test_singular_method(self):
        with self.assertRaises(SingularMatrixError):
            Matrix([[0, 0], [0, 0]]).solve([0, 0])

    def test_non_square_method(self):
        with self.assertRaises(DimensionError):
            Matrix([[1, 2]]).inverse()


if __name__ == "__main__":
    unittest.main()
