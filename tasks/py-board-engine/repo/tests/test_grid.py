import unittest

from boards import Grid, from_text, to_text


class GridTest(unittest.TestCase):
    def test_get_set(self):
        g = Grid(3, 2, 0)
        g[2, 1] = 5
        self.assertEqual(g.cells, [[0, 0, 0], [0, 0, 5]])
        with self.assertRaises(IndexError):
            g[3, 0]

    def test_interior_neighbors(self):
        self.assertEqual(len(Grid(3, 3).neighbors(1, 1)), 8)

    def test_wrapped_neighbors(self):
        self.assertIn((2, 2), Grid(3, 3).neighbors_wrapped(0, 0))

    def test_text_round_trip(self):
        g = from_text("ab\nba", {"a": 1, "b": 2})
        self.assertEqual(to_text(g, lambda v: "ab"[v - 1]), "ab\nba")


if __name__ == "__main__":
    unittest.main()
