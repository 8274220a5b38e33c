import unittest

from moneyfmt import format_money, format_number


class FormatNumberTest(unittest.TestCase):
    def test_small_numbers(self):
        self.assertEqual(format_number(0.5), "0.50")
        self.assertEqual(format_number(999.999), "1,000.00")

    def test_thousands(self):
        self.assertEqual(format_number(1234.5), "1,234.50")
        self.assertEqual(format_number(9876543.21), "9,876,543.21")

    def test_six_digits(self):
        self.assertEqual(format_number(123456), "123,456.00")

    def test_german(self):
        self.assertEqual(format_number(123456789.5, "de_DE"), "123.456.789,50")


class FormatMoneyTest(unittest.TestCase):
    def test_dollars(self):
        self.assertEqual(format_money(1234.5), "$1,234.50")

    def test_salary(self):
        self.assertEqual(format_money(250000, "USD"), "$250,000.00")

    def test_euro_german(self):
        self.assertEqual(format_money(1234.5, "EUR", "de_DE"), "1.234,50 €")

    def test_yen_has_no_decimals(self):
        self.assertEqual(format_money(1234.5, "JPY"), "¥1,235")

    def test_rupees_indian_grouping(self):
        self.assertEqual(format_money(1234567, "INR", "en_IN"), "₹12,34,567.00")

    def test_negative(self):
        self.assertEqual(format_money(-5, "GBP"), "-£5.00")
        self.assertEqual(format_money(-1500, "USD", accounting=True), "($1,500.00)")

    def test_negative_rounding_to_zero(self):
        self.assertEqual(format_money(-0.001), "$0.00")


if __name__ == "__main__":
    unittest.main()
