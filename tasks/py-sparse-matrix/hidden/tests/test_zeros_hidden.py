import unittest

from sparse import (SparseMatrix, equals, from_dense, from_triplets, matmul, scale, subtract,
                    to_csr, to_dense)


class ExplicitZeroTest(unittest.TestCase):
    def test_assigning_zero_removes_entry(self):
        m = SparseMatrix(2, 2)
        m[0, 1] = 5
        m[0, 1] = 0
        self.assertEqual(m.nnz, 0)

    def test_assigning_zero_to_empty_cell(self):
        m = SparseMatrix(3, 3)
        m[2, 2] = 0
        self.assertEqual(m.items(), [])

    def test_difference_with_itself_is_empty(self):
        a = from_dense([[1, 2], [0, 3]])
        self.assertEqual(subtract(a, a).nnz, 0)

    def test_difference_equals_zero_matrix(self):
        a = from_dense([[1, 2], [0, 3]])
        self.assertTrue(equals(subtract(a, a), SparseMatrix(2, 2)))

    def test_cancelling_triplets(self):
        m = from_triplets(2, 2, [(0, 0, 4), (0, 0, -4), (1, 1, 1)])
        self.assertEqual(to_csr(m), ([0, 0, 1], [1], [1]))

    def test_matmul_cancellation(self):
        a = from_dense([[1, 1]])
        b = from_dense([[2], [-2]])
        self.assertEqual(matmul(a, b).nnz, 0)

    def test_scale_by_zero(self):
        self.assertEqual(scale(from_dense([[1, 2]]), 0).nnz, 0)

    def test_nonzero_values_kept(self):
        a = from_dense([[1, 2], [0, 3]])
        b = from_dense([[1, 0], [0, 1]])
        self.assertEqual(to_dense(subtract(a, b)), [[0, 2], [0, 2]])


if __name__ == "__main__":
    unittest.main()
