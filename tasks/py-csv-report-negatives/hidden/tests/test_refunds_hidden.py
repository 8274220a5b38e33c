import unittest
from decimal import Decimal

from report import group_totals, read_rows, region_report, summarize

EXPORT = """date,region,amount
2024-04-01,West,100.00
2024-04-02,West,(25.00)
2024-04-02,East,"$2,000.00"
2024-04-03,East,"($1,500.00)"
2024-04-04,East,-10.00
"""


class RefundTest(unittest.TestCase):
    def test_region_report_nets_refunds(self):
        report = region_report(EXPORT)
        self.assertIn("East    490.00", report)
        self.assertIn("West     75.00", report)
        self.assertTrue(report.endswith("Grand total: 565.00 (5 rows)"))

    def test_group_totals_with_accounting_negatives(self):
        self.assertEqual(group_totals(read_rows(EXPORT), "region"),
                         {"West": Decimal("75.00"), "East": Decimal("490.00")})

    def test_summary_min_is_largest_refund(self):
        self.assertEqual(summarize(read_rows(EXPORT))["min"], Decimal("-1500.00"))

    def test_minus_sign_still_negative(self):
        rows = read_rows(EXPORT)
        self.assertEqual(rows[4]["amount"], Decimal("-10.00"))

    def test_blank_lines_skipped(self):
        self.assertEqual(len(read_rows(EXPORT + "\n,,\n")), 5)


if __name__ == "__main__":
    unittest.main()
