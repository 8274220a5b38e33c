import unittest

from moneyfmt import format_money, format_number
from moneyfmt.grouping import group_digits


class GroupingTest(unittest.TestCase):
    def test_exact_multiples(self):
        self.assertEqual(group_digits("123"), "123")
        self.assertEqual(group_digits("123456"), "123,456")
        self.assertEqual(group_digits("123456789", "."), "123.456.789")

    def test_indian_even_head(self):
        self.assertEqual(group_digits("1234567", grouping=(3, 2)), "12,34,567")
        self.assertEqual(group_digits("12345", grouping=(3, 2)), "12,345")

    def test_french_million(self):
        self.assertEqual(format_money(100000, "EUR", "fr_FR"), "100\u202f000,00 €")

    def test_accounting_six_digits(self):
        self.assertEqual(format_money(-654321, accounting=True), "($654,321.00)")

    def test_uneven_groups(self):
        self.assertEqual(group_digits("1234567"), "1,234,567")
        self.assertEqual(group_digits("123456", grouping=(3, 2)), "1,23,456")

    def test_rejects_non_digits(self):
        with self.assertRaises(ValueError):
            group_digits("12a")

    def test_short_numbers(self):
        self.assertEqual(format_number(7), "7.00")


if __name__ == "__main__":
    unittest.main()
