import unittest
from decimal import Decimal

from taxcalc import compute_tax
from taxcalc.withholding import withholding_per_paycheck


class ComputeTaxTest(unittest.TestCase):
    def test_single_2024(self):
        result = compute_tax("75000", "single")
        self.assertEqual(result.taxable, Decimal("60400.00"))
        self.assertEqual(result.tax, Decimal("8341.00"))
        self.assertEqual(result.marginal_rate, Decimal("0.22"))

    def test_married_2025(self):
        self.assertEqual(compute_tax("150000", "married_joint", year=2025).tax, Decimal("16228.00"))

    def test_head_of_household_low_income(self):
        result = compute_tax("30000", "head_of_household")
        self.assertEqual((result.taxable, result.tax), (Decimal("8100.00"), Decimal("810.00")))

    def test_below_standard_deduction(self):
        result = compute_tax("10000", "single")
        self.assertEqual((result.taxable, result.tax, result.effective_rate), (Decimal("0.00"), Decimal("0.00"), Decimal("0.0000")))

    def test_top_bracket(self):
        self.assertEqual(compute_tax("1000000", "single").marginal_rate, Decimal("0.37"))

    def test_itemized_beats_standard(self):
        itemized = {"state_and_local": "18000", "mortgage_interest": "9000", "medical": "9000"}
        result = compute_tax("100000", "single", itemized)
        self.assertEqual(result.deduction, Decimal("20500.00"))

    def test_charity_cap(self):
        result = compute_tax("40000", "single", {"charity": "30000"})
        self.assertEqual(result.deduction, Decimal("24000.00"))

    def test_errors(self):
        with self.assertRaises(ValueError):
            compute_tax("1000", "widowed")
        with self.assertRaises(ValueError):
            compute_tax("1000", "single", year=2019)
        with self.assertRaises(ValueError):
            compute_tax("1000", "single", {"yacht": "5"})


class WithholdingTest(unittest.TestCase):
    def test_biweekly(self):
        self.assertEqual(withholding_per_paycheck("75000", "single"), Decimal("320.81"))


if __name__ == "__main__":
    unittest.main()
