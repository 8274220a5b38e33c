import unittest

from tourney import Result, standings


class StandingsTest(unittest.TestCase):
    def test_points(self):
        table = standings([Result("A", "B", 2, 0), Result("B", "C", 1, 1)])
        self.assertEqual(table[0], ("A", 1, 3, 2, 2))

    def test_goal_difference_breaks_ties(self):
        results = [Result("A", "X", 1, 0), Result("B", "X", 4, 0)]
        self.assertEqual([row[0] for row in standings(results)], ["B", "A", "X"])

    def test_then_goals_for_then_name(self):
        results = [Result("B", "A", 2, 2), Result("C", "D", 1, 1)]
        self.assertEqual([row[0] for row in standings(results)], ["A", "B", "C", "D"])


if __name__ == "__main__":
    unittest.main()
