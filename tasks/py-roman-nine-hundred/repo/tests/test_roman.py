import unittest

from numerals import from_roman, to_roman


class ToRomanTest(unittest.TestCase):
    def test_small_numbers(self):
        self.assertEqual([to_roman(n) for n in (1, 4, 9, 14, 40)], ["I", "IV", "IX", "XIV", "XL"])

    def test_year(self):
        self.assertEqual(to_roman(2024), "MMXXIV")

    def test_four_hundred(self):
        self.assertEqual(to_roman(444), "CDXLIV")

    def test_range(self):
        with self.assertRaises(ValueError):
            to_roman(0)
        with self.assertRaises(ValueError):
            to_roman(4000)

    def test_type(self):
        with self.assertRaises(TypeError):
            to_roman(3.0)


class FromRomanTest(unittest.TestCase):
    def test_lower_case(self):
        self.assertEqual(from_roman("mmxxiv"), 2024)

    def test_rejects_non_canonical(self):
        for text in ("IIII", "IC", "VX", ""):
            with self.subTest(text=text):
                with self.assertRaises(ValueError):
                    from_roman(text)

    def test_round_trip_below_nine_hundred(self):
        for n in range(1, 900):
            self.assertEqual(from_roman(to_roman(n)), n)


if __name__ == "__main__":
    unittest.main()
