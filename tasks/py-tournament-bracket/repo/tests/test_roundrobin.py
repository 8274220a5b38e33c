import itertools
import unittest

from tourney import round_robin


class RoundRobinTest(unittest.TestCase):
    def test_four_teams_play_three_rounds(self):
        self.assertEqual(len(round_robin("ABCD")), 3)

    def test_every_pair_meets_once(self):
        rounds = round_robin("ABCDEF")
        met = [frozenset(p) for r in rounds for p in r]
        self.assertEqual(sorted(map(sorted, met)), sorted(map(sorted, map(frozenset, itertools.combinations("ABCDEF", 2)))))

    def test_nobody_plays_twice_in_a_round(self):
        for pairs in round_robin("ABCDEFGH"):
            teams = [t for p in pairs for t in p]
            self.assertEqual(len(teams), len(set(teams)))

    def test_odd_number_of_teams_rests_one_per_round(self):
        rounds = round_robin("ABCDE")
        self.assertEqual(len(rounds), 5)
        self.assertTrue(all(len(r) == 2 for r in rounds))

    def test_fewer_than_two_teams(self):
        self.assertEqual(round_robin(["solo"]), [])


if __name__ == "__main__":
    unittest.main()
