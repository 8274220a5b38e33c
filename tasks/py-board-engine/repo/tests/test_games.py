import unittest

from games import Life, Minefield, parse_rule

BLINKER = """
.....
..#..
..#..
..#..
.....
"""


class LifeTest(unittest.TestCase):
    def test_blinker_oscillates(self):
        life = Life.from_text(BLINKER)
        self.assertEqual(str(life.step()), ".....\n.....\n.###.\n.....\n.....")
        self.assertEqual(str(life.step()), BLINKER.strip())

    def test_rule_parsing(self):
        self.assertEqual(parse_rule("b36/s23"), ({3, 6}, {2, 3}))
        with self.assertRaises(ValueError):
            parse_rule("23/3")

    def test_torus(self):
        life = Life.from_text("#....\n#....\n#....\n.....\n.....", wrap=True)
        self.assertEqual(str(life.step()), ".....\n##..#\n.....\n.....\n.....")


class MinefieldTest(unittest.TestCase):
    def test_counts_around_center_mine(self):
        field = Minefield(5, 5, [(2, 2)])
        self.assertEqual(field.adjacent_mines(1, 1), 1)
        self.assertEqual(field.adjacent_mines(2, 3), 1)

    def test_explode(self):
        field = Minefield(3, 3, [(1, 1)])
        field.reveal(1, 1)
        self.assertTrue(field.exploded)
        self.assertFalse(field.won)

    def test_flags_block_reveal(self):
        field = Minefield(3, 3, [(1, 1)])
        field.toggle_flag(0, 0)
        self.assertEqual(field.reveal(0, 0), 0)


if __name__ == "__main__":
    unittest.main()
