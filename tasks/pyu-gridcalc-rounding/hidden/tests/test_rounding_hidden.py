import unittest

from gridcalc.formatting import format_number, format_value

from tests.support import evaluate, sheet_with


class RoundFunctionTest(unittest.TestCase):
    def test_halves(self):
        self.assertEqual(evaluate("=ROUND(0.5)"), 1.0)
        self.assertEqual(evaluate("=ROUND(-0.5)"), -1.0)
        self.assertEqual(evaluate("=ROUND(4.5, 0)"), 5.0)
        self.assertEqual(evaluate("=ROUND(-1.25, 1)"), -1.3)

    def test_decimal_halves_stored_inexactly(self):
        self.assertEqual(evaluate("=ROUND(1.005, 2)"), 1.01)
        self.assertEqual(evaluate("=ROUND(2.675, 2)"), 2.68)
        self.assertEqual(evaluate("=ROUND(123456789.125, 2)"), 123456789.13)

    def test_negative_digits(self):
        self.assertEqual(evaluate("=ROUND(1250, -2)"), 1300.0)
        self.assertEqual(evaluate("=ROUND(-1250, -2)"), -1300.0)

    def test_not_halves_unchanged(self):
        self.assertEqual(evaluate("=ROUND(2.4999, 0)"), 2.0)
        self.assertEqual(evaluate("=ROUND(3.14159, 3)"), 3.142)
        self.assertEqual(evaluate("=ROUND(-7.8)"), -8.0)

    def test_on_cell_values(self):
        sheet = sheet_with({"A1": "=10/4", "B1": "=ROUND(A1, 0)", "C1": "=ROUND(A1, 1)"})
        self.assertEqual(sheet.get("B1"), 3.0)
        self.assertEqual(sheet.get("C1"), 2.5)


class FormatRoundingTest(unittest.TestCase):
    def test_fixed(self):
        self.assertEqual(format_number(0.5, "0"), "1")
        self.assertEqual(format_number(1.005, "0.00"), "1.01")
        self.assertEqual(format_number(-2.5, "0"), "-3")

    def test_grouped(self):
        self.assertEqual(format_number(1234.5, "#,##0"), "1,235")
        self.assertEqual(format_number(-2222.5, "#,##0"), "-2,223")
        self.assertEqual(format_number(999999.995, "#,##0.00"), "1,000,000.00")

    def test_percent(self):
        self.assertEqual(format_number(0.0625, "0.0%"), "6.3%")
        self.assertEqual(format_number(0.125, "0%"), "13%")

    def test_value_and_text_function(self):
        self.assertEqual(format_value(2.5, "0"), "3")
        self.assertEqual(evaluate('=TEXT(0.125, "0.00")'), "0.13")
        self.assertEqual(evaluate('=TEXT(2.345, "0.00")'), "2.35")

    def test_display(self):
        sheet = sheet_with({"A1": "=1/8"})
        sheet.set_format("A1", "0.00")
        self.assertEqual(sheet.display("A1"), "0.13")

    def test_small_negative_shows_no_sign(self):
        self.assertEqual(format_number(-0.004, "0.00"), "0.00")


if __name__ == "__main__":
    unittest.main()
