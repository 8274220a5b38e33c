import importlib
import unittest
from collections import Counter

import textkit

TEXT = (
    "The quick brown fox jumps. The quick brown dog sleeps. "
    "A quick brown fox is quick! Brown fox"
)


class NgramsTest(unittest.TestCase):
    def setUp(self):
        self.mod = importlib.import_module("textkit.ngrams")

    def test_bigrams(self):
        self.assertEqual(self.mod.ngrams(["a", "b", "c"], 2), [("a", "b"), ("b", "c")])

    def test_too_short(self):
        self.assertEqual(self.mod.ngrams(["a"], 2), [])

    def test_unigrams(self):
        self.assertEqual(self.mod.ngrams(["x", "y"], 1), [("x",), ("y",)])

    def test_invalid_n(self):
        with self.assertRaises(ValueError):
            self.mod.ngrams(["a"], 0)

    def test_accepts_any_iterable(self):
        self.assertEqual(self.mod.ngrams(iter(["a", "b", "c"]), 3), [("a", "b", "c")])


class NgramCountsTest(unittest.TestCase):
    def setUp(self):
        self.mod = importlib.import_module("textkit.ngrams")

    def test_do_not_cross_sentences(self):
        counts = self.mod.ngram_counts("Red fox. Fox red.", 2)
        self.assertEqual(counts, Counter({("red", "fox"): 1, ("fox", "red"): 1}))

    def test_counts_with_stopwords_dropped(self):
        counts = self.mod.ngram_counts(TEXT, 2, drop_stopwords=True)
        self.assertEqual(counts[("quick", "brown")], 3)
        self.assertEqual(counts[("brown", "fox")], 3)
        self.assertEqual(counts[("fox", "quick")], 1)
        self.assertNotIn(("fox", "is"), counts)

    def test_stopwords_dropped_before_pairing(self):
        self.assertEqual(self.mod.ngram_counts("fox is quick", 2, drop_stopwords=True), Counter({("fox", "quick"): 1}))


class TopNgramsTest(unittest.TestCase):
    def setUp(self):
        self.mod = importlib.import_module("textkit.ngrams")

    def test_top_bigrams(self):
        self.assertEqual(self.mod.top_ngrams(TEXT, 2, k=3), [("brown fox", 3), ("quick brown", 3), ("the quick", 2)])

    def test_top_trigrams_without_stopwords(self):
        self.assertEqual(self.mod.top_ngrams(TEXT, 3, k=2, drop_stopwords=True),
                         [("quick brown fox", 2), ("brown dog sleeps", 1)])

    def test_exported_from_package(self):
        self.assertIs(textkit.top_ngrams, self.mod.top_ngrams)
        self.assertIs(textkit.ngrams, self.mod.ngrams)


if __name__ == "__main__":
    unittest.main()
