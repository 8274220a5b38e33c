import unittest

from stats import median, summarize


class MedianEvenTest(unittest.TestCase):
    def test_median_even_count(self):
        self.assertEqual(median([4, 1, 3, 2]), 2.5)

    def test_median_two_values(self):
        self.assertEqual(median([10, 20]), 15)

    def test_median_odd_unchanged(self):
        self.assertEqual(median([7, 1, 4]), 4)

    def test_summary_uses_even_median(self):
        self.assertEqual(summarize([1, 2, 3, 4])["median"], 2.5)


if __name__ == "__main__":
    unittest.main()
