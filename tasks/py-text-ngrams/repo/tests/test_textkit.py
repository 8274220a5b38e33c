import unittest

from textkit import remove_stopwords, sentences, tokenize, top_words, word_counts
from textkit.freq import keyword_density, type_token_ratio


class TokenizeTest(unittest.TestCase):
    def test_punctuation_and_case(self):
        self.assertEqual(tokenize("Hello, World! It's 2024."), ["hello", "world", "it's", "2024"])

    def test_curly_apostrophe(self):
        self.assertEqual(tokenize("Don’t stop", lowercase=False), ["Don't", "stop"])

    def test_sentences(self):
        self.assertEqual(sentences("One two. Three?  Four!\n\nFive"), ["One two.", "Three?", "Four!", "Five"])


class FrequencyTest(unittest.TestCase):
    def test_word_counts(self):
        self.assertEqual(word_counts("the cat and the hat")["the"], 2)

    def test_top_words_ties_alphabetical(self):
        self.assertEqual(top_words("b a c a b", k=2), [("a", 2), ("b", 2)])

    def test_stopwords_removed(self):
        self.assertEqual(remove_stopwords(["The", "quick", "fox", "is", "here"]), ["quick", "fox", "here"])

    def test_richness_measures(self):
        self.assertEqual(type_token_ratio("the cat and the hat"), 0.8)
        self.assertEqual(keyword_density("Spam spam eggs spam", "SPAM"), 75.0)
        self.assertEqual(type_token_ratio("..."), 0.0)


if __name__ == "__main__":
    unittest.main()
