import unittest
from decimal import Decimal

from budget import Budget, Envelope
from reports import csv_rows, month_table


def household():
    return Budget([
        Envelope("rent", "800", priority=1),
        Envelope("food", "400", priority=2),
        Envelope("holiday", "100", priority=5, carry_over=True, cap="250"),
    ])


class PlannerTest(unittest.TestCase):
    def test_underspent_month(self):
        budget = household()
        jan = budget.run_month("2025-01", "1400", {"rent": "800", "food": "350"})
        self.assertEqual(jan.closing["food"], Decimal("50.00"))
        self.assertEqual(jan.carried, {"rent": Decimal("0.00"), "food": Decimal("0.00"), "holiday": Decimal("100.00")})
        self.assertEqual(jan.unassigned, Decimal("100.00"))

    def test_sinking_fund_grows_to_cap(self):
        budget = household()
        for month in ("01", "02", "03"):
            result = budget.run_month(f"2025-{month}", "1300", {"rent": "800", "food": "400"})
        self.assertEqual(result.carried["holiday"], Decimal("250.00"))
        self.assertEqual(result.available("holiday"), Decimal("300.00"))

    def test_unknown_envelope(self):
        with self.assertRaises(KeyError):
            household().run_month("2025-01", "1000", {"cinema": "10"})


class ReportsTest(unittest.TestCase):
    def test_table_and_csv(self):
        budget = household()
        budget.run_month("2025-01", "1300", {"rent": "800", "food": "380"})
        lines = month_table(budget.history[0])
        self.assertEqual(lines[0].split(), ["envelope", "opening", "allocated", "spent", "closing", "carried"])
        self.assertEqual(lines[-1], "unassigned: 0.00")
        self.assertEqual(csv_rows(budget.history)[2], ["2025-01", "food", "0.00", "400.00", "380.00", "20.00", "0.00"])


if __name__ == "__main__":
    unittest.main()
