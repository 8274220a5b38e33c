import unittest

from numerals import describe, from_roman, to_roman


class NineHundredTest(unittest.TestCase):
    def test_nine_hundred(self):
        self.assertEqual(to_roman(900), "CM")

    def test_year_1994(self):
        self.assertEqual(to_roman(1994), "MCMXCIV")

    def test_max(self):
        self.assertEqual(to_roman(3999), "MMMCMXCIX")

    def test_parse_cm(self):
        self.assertEqual(from_roman("MCMLXXXIV"), 1984)

    def test_describe_roman_input(self):
        self.assertEqual(describe("cmxcix")["value"], 999)

    def test_round_trip_all(self):
        for n in range(1, 4000):
            self.assertEqual(from_roman(to_roman(n)), n)

    def test_dcccc_still_rejected(self):
        with self.assertRaises(ValueError):
            from_roman("DCCCC")

    def test_eight_hundred_unchanged(self):
        self.assertEqual(to_roman(888), "DCCCLXXXVIII")


if __name__ == "__main__":
    unittest.main()
