import unittest

from gridcalc.errors import DIV0, VALUE, ErrorSignal
from gridcalc.values import (
    compare, number_to_text, parse_input, parse_number, round_half_away, to_bool, to_number,
    to_text,
)


class ParseInputTest(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(parse_input("42"), 42.0)
        self.assertEqual(parse_input(" -3.5 "), -3.5)
        self.assertEqual(parse_input("1,234,567.25"), 1234567.25)

    def test_badly_grouped_number_is_text(self):
        self.assertEqual(parse_input("12,34"), "12,34")

    def test_booleans_any_case(self):
        self.assertIs(parse_input("true"), True)
        self.assertIs(parse_input("FALSE"), False)

    def test_empty_and_text(self):
        self.assertIsNone(parse_input("   "))
        self.assertEqual(parse_input("hello world"), "hello world")


class ConversionTest(unittest.TestCase):
    def test_to_number(self):
        self.assertEqual(to_number(None), 0.0)
        self.assertEqual(to_number(True), 1.0)
        self.assertEqual(to_number(" 7 "), 7.0)
        with self.assertRaises(ErrorSignal) as caught:
            to_number("seven")
        self.assertEqual(caught.exception.error, VALUE)

    def test_error_values_raise(self):
        with self.assertRaises(ErrorSignal):
            to_number(DIV0)

    def test_to_text(self):
        self.assertEqual(to_text(3.0), "3")
        self.assertEqual(to_text(0.5), "0.5")
        self.assertEqual(to_text(False), "FALSE")
        self.assertEqual(to_text(None), "")

    def test_to_bool(self):
        self.assertIs(to_bool(0.0), False)
        self.assertIs(to_bool(-2.0), True)
        self.assertIs(to_bool("True"), True)
        with self.assertRaises(ErrorSignal):
            to_bool("maybe")

    def test_number_to_text(self):
        self.assertEqual(number_to_text(1 / 3), "0.3333333333")
        self.assertEqual(number_to_text(1e20), "1E+20")
        self.assertEqual(number_to_text(-12.0), "-12")

    def test_parse_number_rejects_words(self):
        self.assertIsNone(parse_number("1e"))
        self.assertIsNone(parse_number("abc"))

    def test_round_half_away_basic(self):
        self.assertEqual(round_half_away(1.24, 1), 1.2)
        self.assertEqual(round_half_away(1234.0, -2), 1200.0)


class CompareTest(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(compare(1.0, 2.0), -1)
        self.assertEqual(compare(2.0, 2.0), 0)

    def test_empty_against_number(self):
        self.assertEqual(compare(None, 0.0), 0)
        self.assertEqual(compare(None, 1.0), -1)

    def test_text_order(self):
        self.assertEqual(compare("apple", "banana"), -1)


if __name__ == "__main__":
    unittest.main()
