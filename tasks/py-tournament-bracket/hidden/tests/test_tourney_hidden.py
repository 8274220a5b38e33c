import unittest

from tourney import Bracket, Result, round_robin, seed_order, standings


class TourneyHiddenTest(unittest.TestCase):
    def test_six_teams_five_rounds(self):
        self.assertEqual(len(round_robin(range(6))), 5)

    def test_seven_teams_seven_rounds(self):
        self.assertEqual(len(round_robin(range(7))), 7)

    def test_twelve_teams_sixty_six_matches(self):
        self.assertEqual(sum(len(r) for r in round_robin(range(12))), 66)

    def test_seed_order_sixteen(self):
        self.assertEqual(seed_order(16), [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11])

    def test_eight_player_first_round(self):
        b = Bracket([f"p{i}" for i in range(1, 9)])
        self.assertEqual(b.rounds[0][1], ("p4", "p5"))

    def test_top_seeds_meet_in_final(self):
        b = Bracket([f"p{i}" for i in range(1, 9)])
        b.advance(["p1", "p2", "p3", "p4"])
        self.assertEqual(b.advance(["p1", "p2"]), [("p1", "p2")])

    def test_goal_difference_first(self):
        results = [Result("A", "B", 5, 0), Result("C", "D", 1, 0)]
        self.assertEqual(standings(results)[0][0], "A")

    def test_seed_order_two(self):
        self.assertEqual(seed_order(2), [1, 2])

    def test_draws_count_one_point(self):
        self.assertEqual(standings([Result("A", "B", 0, 0)])[0], ("A", 1, 1, 0, 0))


if __name__ == "__main__":
    unittest.main()
