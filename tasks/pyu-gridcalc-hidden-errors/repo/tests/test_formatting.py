import unittest

from gridcalc.errors import NA
from gridcalc.formatting import PatternError, format_number, format_value, parse_pattern


class FormatNumberTest(unittest.TestCase):
    def test_fixed_decimals(self):
        self.assertEqual(format_number(3.14159, "0.00"), "3.14")
        self.assertEqual(format_number(3, "0.000"), "3.000")

    def test_grouping(self):
        self.assertEqual(format_number(1234567.891, "#,##0.00"), "1,234,567.89")
        self.assertEqual(format_number(-1234, "#,##0"), "-1,234")

    def test_percent(self):
        self.assertEqual(format_number(0.256, "0.0%"), "25.6%")
        self.assertEqual(format_number(1, "0%"), "100%")

    def test_negative_rounding_to_zero_has_no_sign(self):
        self.assertEqual(format_number(-0.001, "0.00"), "0.00")

    def test_bad_patterns(self):
        for bad in ("", "0.", "#,#0", "00.0", "0.0#", "abc"):
            with self.subTest(pattern=bad):
                with self.assertRaises(PatternError):
                    parse_pattern(bad)


class FormatValueTest(unittest.TestCase):
    def test_general(self):
        self.assertEqual(format_value(None), "")
        self.assertEqual(format_value(2.0), "2")
        self.assertEqual(format_value(True), "TRUE")
        self.assertEqual(format_value(NA), "#N/A")
        self.assertEqual(format_value("text", "0.00"), "text")

    def test_with_pattern(self):
        self.assertEqual(format_value(2.0, "0.00"), "2.00")


if __name__ == "__main__":
    unittest.main()
