import unittest

from boards import Grid
from games import Life, Minefield


class EdgeTest(unittest.TestCase):
    def test_corner_has_three_neighbors(self):
        self.assertEqual(sorted(Grid(4, 3).neighbors(0, 0)), [(0, 1), (1, 0), (1, 1)])

    def test_edge_has_five_neighbors(self):
        self.assertEqual(len(Grid(4, 3).neighbors(0, 1)), 5)

    def test_no_negative_positions(self):
        self.assertEqual([p for p in Grid(2, 2).neighbors(0, 1) if min(p) < 0], [])

    def test_mine_on_far_edge_not_counted(self):
        field = Minefield(5, 5, [(4, 0)])
        self.assertEqual(field.adjacent_mines(0, 0), 0)

    def test_mine_on_bottom_row_not_counted_at_top(self):
        field = Minefield(4, 4, [(1, 3)])
        self.assertEqual(field.adjacent_mines(1, 0), 0)

    def test_flood_fill_wins(self):
        field = Minefield(4, 4, [(3, 3)])
        field.reveal(0, 0)
        self.assertEqual(field.won, True)

    def test_flood_fill_picture(self):
        field = Minefield(4, 3, [(3, 0)])
        field.reveal(0, 2)
        self.assertEqual(field.picture(), "..1#\n..11\n....")

    def test_blinker_on_right_edge(self):
        life = Life.from_text(".....\n....#\n....#\n....#\n.....")
        self.assertEqual(str(life.step()), ".....\n.....\n...##\n.....\n.....")

    def test_torus_still_wraps(self):
        life = Life.from_text(".....\n....#\n....#\n....#\n.....", wrap=True)
        self.assertEqual(str(life.step()), ".....\n.....\n#..##\n.....\n.....")

    def test_interior_unchanged(self):
        self.assertEqual(len(Grid(3, 3).neighbors(1, 1)), 8)


if __name__ == "__main__":
    unittest.main()
