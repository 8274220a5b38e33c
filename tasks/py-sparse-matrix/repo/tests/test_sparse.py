import unittest

from sparse import (ShapeError, SparseMatrix, add, equals, from_dense, from_triplets, matmul,
                    scale, to_csr, to_dense, transpose)


class StorageTest(unittest.TestCase):
    def test_get_and_set(self):
        m = SparseMatrix(2, 3)
        m[1, 2] = 7
        self.assertEqual(m[1, 2], 7)
        self.assertEqual(m[0, 0], 0)
        self.assertEqual(m.nnz, 1)

    def test_out_of_range(self):
        m = SparseMatrix(2, 2)
        with self.assertRaises(ShapeError):
            m[2, 0] = 1


class OpsTest(unittest.TestCase):
    def test_add(self):
        a = from_dense([[1, 0], [0, 2]])
        b = from_dense([[0, 3], [0, 4]])
        self.assertEqual(to_dense(add(a, b)), [[1, 3], [0, 6]])

    def test_matmul(self):
        a = from_dense([[1, 2], [0, 1]])
        b = from_dense([[3, 0], [1, 1]])
        self.assertEqual(to_dense(matmul(a, b)), [[5, 2], [1, 1]])

    def test_transpose_and_scale(self):
        a = from_dense([[1, 2, 0]])
        self.assertEqual(to_dense(scale(transpose(a), 3)), [[3], [6], [0]])

    def test_shape_mismatch(self):
        with self.assertRaises(ShapeError):
            add(SparseMatrix(1, 2), SparseMatrix(2, 1))

    def test_equals(self):
        self.assertTrue(equals(from_dense([[0, 1]]), from_dense([[0, 1]])))
        self.assertFalse(equals(from_dense([[0, 1]]), from_dense([[1, 0]])))


class FormatsTest(unittest.TestCase):
    def test_csr(self):
        m = from_dense([[1, 0, 2], [0, 0, 0], [0, 3, 0]])
        self.assertEqual(to_csr(m), ([0, 2, 2, 3], [0, 2, 1], [1, 2, 3]))

    def test_triplets_sum_duplicates(self):
        m = from_triplets(2, 2, [(0, 1, 2), (0, 1, 3), (1, 0, 1)])
        self.assertEqual(to_dense(m), [[0, 5], [1, 0]])


if __name__ == "__main__":
    unittest.main()
