import unittest

from textdiff import apply_opcodes, longest_common_subsequence, matching_pairs, opcodes


class LcsTest(unittest.TestCase):
    def test_classic_example(self):
        self.assertEqual("".join(longest_common_subsequence("ABCBDAB", "BDCABA")), "BDAB")

    def test_pairs_are_increasing(self):
        pairs = matching_pairs(list("xaybzc"), list("abc"))
        self.assertEqual(pairs, [(1, 0), (3, 1), (5, 2)])

    def test_empty(self):
        self.assertEqual(matching_pairs([], ["a"]), [])


class OpcodesTest(unittest.TestCase):
    def test_replace_in_the_middle(self):
        self.assertEqual(
            opcodes(["a", "b", "c"], ["a", "x", "c"]),
            [("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 2), ("equal", 2, 3, 2, 3)],
        )

    def test_insert_at_end(self):
        self.assertEqual(opcodes(["a"], ["a", "b"]), [("equal", 0, 1, 0, 1), ("insert", 1, 1, 1, 2)])

    def test_apply_round_trip(self):
        a = "the quick brown fox jumps over the lazy dog".split()
        b = "the slow brown cat jumps over the dog today".split()
        self.assertEqual(apply_opcodes(a, b, opcodes(a, b)), b)


if __name__ == "__main__":
    unittest.main()
