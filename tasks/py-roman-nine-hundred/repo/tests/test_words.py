import unittest

from numerals import describe, to_ordinal_words, to_words


class WordsTest(unittest.TestCase):
    def test_teens_and_tens(self):
        self.assertEqual(to_words(17), "seventeen")
        self.assertEqual(to_words(45), "forty-five")

    def test_hundreds_with_and(self):
        self.assertEqual(to_words(105), "one hundred and five")

    def test_thousands(self):
        self.assertEqual(to_words(12345), "twelve thousand three hundred and forty-five")
        self.assertEqual(to_words(1005), "one thousand and five")

    def test_negative(self):
        self.assertEqual(to_words(-3), "minus three")

    def test_ordinals(self):
        self.assertEqual(to_ordinal_words(21), "twenty-first")
        self.assertEqual(to_ordinal_words(40), "fortieth")
        self.assertEqual(to_ordinal_words(112), "one hundred and twelfth")


class DescribeTest(unittest.TestCase):
    def test_digits(self):
        self.assertEqual(describe("42"), {"value": 42, "roman": "XLII", "words": "forty-two"})

    def test_zero_has_no_numeral(self):
        self.assertIsNone(describe("0")["roman"])


if __name__ == "__main__":
    unittest.main()
