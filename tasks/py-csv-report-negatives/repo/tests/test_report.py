import unittest
from datetime import date
from decimal import Decimal

from report import group_totals, parse_amount, read_rows, region_report, render_table

CSV = """Date,Region,Amount
2024-03-01,North,"$1,200.00"
2024-03-02,South,300.50
2024-03-02,North,99.50
"""


class ReaderTest(unittest.TestCase):
    def test_parse_amount_formats(self):
        self.assertEqual(parse_amount("$1,234.50"), Decimal("1234.50"))
        self.assertEqual(parse_amount("-12"), Decimal("-12"))
        self.assertIsNone(parse_amount("  "))

    def test_read_rows_types(self):
        rows = read_rows(CSV)
        self.assertEqual(rows[0], {"date": date(2024, 3, 1), "region": "North", "amount": Decimal("1200.00")})

    def test_bad_amount(self):
        with self.assertRaises(ValueError):
            parse_amount("twelve")


class AggregateTest(unittest.TestCase):
    def test_group_totals(self):
        self.assertEqual(group_totals(read_rows(CSV), "region"),
                         {"North": Decimal("1299.50"), "South": Decimal("300.50")})


class RenderTest(unittest.TestCase):
    def test_render_alignment(self):
        out = render_table(["Name", "Total"], [("a", Decimal("5")), ("bbb", Decimal("1234.5"))])
        self.assertEqual(out.splitlines(), ["Name     Total", "----  --------", "a         5.00", "bbb   1,234.50"])

    def test_region_report(self):
        self.assertTrue(region_report(CSV).endswith("Grand total: 1,600.00 (3 rows)"))


if __name__ == "__main__":
    unittest.main()
