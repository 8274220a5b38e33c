import unittest

from textdiff import diffstat


class DiffstatTest(unittest.TestCase):
    def test_only_insertions(self):
        self.assertEqual(diffstat(["a"], ["a", "b", "c"]), (2, 0))

    def test_only_deletions(self):
        self.assertEqual(diffstat(["a", "b", "c"], ["c"]), (0, 2))

    def test_replace_counts_both_sides(self):
        self.assertEqual(diffstat(["a", "b", "c", "d"], ["a", "X", "d"]), (1, 2))


if __name__ == "__main__":
    unittest.main()
