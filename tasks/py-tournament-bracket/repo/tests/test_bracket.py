import unittest

from tourney import Bracket, seed_order


class SeedOrderTest(unittest.TestCase):
    def test_four(self):
        self.assertEqual(seed_order(4), [1, 4, 2, 3])

    def test_eight(self):
        self.assertEqual(seed_order(8), [1, 8, 4, 5, 2, 7, 3, 6])

    def test_not_power_of_two(self):
        with self.assertRaises(ValueError):
            seed_order(6)


class BracketTest(unittest.TestCase):
    def test_byes_go_to_top_seeds(self):
        b = Bracket(["s1", "s2", "s3", "s4", "s5", "s6"])
        self.assertEqual(sorted(b.byes()), ["s1", "s2"])

    def test_play_to_final(self):
        b = Bracket(["a", "b", "c", "d"])
        self.assertEqual(b.rounds[0], [("a", "d"), ("b", "c")])
        self.assertEqual(b.advance(["a", "c"]), [("a", "c")])
        with self.assertRaises(ValueError):
            b.advance(["a"])
            b.advance(["a"])


if __name__ == "__main__":
    unittest.main()
