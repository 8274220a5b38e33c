import unittest

from stats import mean, median, summarize


class MeanTest(unittest.TestCase):
    def test_mean_of_integers(self):
        self.assertEqual(mean([1, 2, 3, 4]), 2.5)

    def test_mean_empty_raises(self):
        with self.assertRaises(ValueError):
            mean([])


class MedianTest(unittest.TestCase):
    def test_median_odd_count(self):
        self.assertEqual(median([5, 1, 3]), 3)


if __name__ == "__main__":
    unittest.main()
