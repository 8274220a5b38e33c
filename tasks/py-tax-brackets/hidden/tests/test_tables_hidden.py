import importlib
import unittest
from decimal import Decimal

from taxcalc import compute_tax
from taxcalc.withholding import withholding_per_paycheck


def module(name):
    return importlib.import_module(f"taxcalc.{name}")


class TablesTest(unittest.TestCase):
    def test_bracket_table_shape(self):
        self.assertEqual(module("tables").BRACKETS[(2024, "single")][0], (Decimal("11600"), Decimal("0.10")))

    def test_bracket_table_top(self):
        self.assertEqual(module("tables").BRACKETS[(2025, "married_joint")][-1], (None, Decimal("0.37")))

    def test_standard_deduction_table(self):
        self.assertEqual(module("tables").STANDARD_DEDUCTION[(2025, "head_of_household")], Decimal("22500"))

    def test_new_year_from_tables_only(self):
        tables = module("tables")
        tables.BRACKETS[(2030, "single")] = [(Decimal("10000"), Decimal("0.10")), (None, Decimal("0.20"))]
        tables.STANDARD_DEDUCTION[(2030, "single")] = Decimal("5000")
        try:
            self.assertEqual(compute_tax("25000", "single", year=2030).tax, Decimal("3000.00"))
        finally:
            del tables.BRACKETS[(2030, "single")]
            del tables.STANDARD_DEDUCTION[(2030, "single")]


class BracketFunctionsTest(unittest.TestCase):
    def test_tax_on(self):
        brackets = module("tables").BRACKETS[(2024, "single")]
        self.assertEqual(module("brackets").tax_on(Decimal("60400"), brackets), Decimal("8341.00"))

    def test_tax_on_zero(self):
        brackets = module("tables").BRACKETS[(2024, "single")]
        self.assertEqual(module("brackets").tax_on(Decimal("0"), brackets), Decimal("0.00"))

    def test_marginal_rate(self):
        brackets = module("tables").BRACKETS[(2024, "married_joint")]
        self.assertEqual(module("brackets").marginal_rate(Decimal("94300"), brackets), Decimal("0.12"))

    def test_marginal_rate_above_bound(self):
        brackets = module("tables").BRACKETS[(2024, "married_joint")]
        self.assertEqual(module("brackets").marginal_rate(Decimal("94300.01"), brackets), Decimal("0.22"))


class DeductionFunctionsTest(unittest.TestCase):
    def test_itemized_total(self):
        itemized = {"state_and_local": "18000", "mortgage_interest": "9000", "medical": "9000"}
        self.assertEqual(module("deductions").itemized_total(Decimal("100000"), itemized), Decimal("20500"))

    def test_deduction_for_standard(self):
        self.assertEqual(module("deductions").deduction_for(Decimal("50000"), "single", 2025, {}), Decimal("15000"))

    def test_deduction_for_itemized(self):
        deduction = module("deductions").deduction_for(Decimal("40000"), "married_joint", 2024, {"mortgage_interest": "31000"})
        self.assertEqual(deduction, Decimal("31000"))

    def test_unknown_category(self):
        with self.assertRaises(ValueError):
            module("deductions").itemized_total(Decimal("1"), {"yacht": "5"})


class BehaviourUnchangedTest(unittest.TestCase):
    def test_every_table_entry(self):
        totals = [compute_tax("250000", status, year=year).tax
                  for year in (2024, 2025) for status in ("single", "married_joint", "head_of_household")]
        self.assertEqual(totals, [Decimal("53014.50"), Decimal("39077.00"), Decimal("48985.00"),
                                  Decimal("52263.00"), Decimal("38494.00"), Decimal("48124.00")])

    def test_withholding(self):
        self.assertEqual(withholding_per_paycheck("120000", "married_joint", "monthly", 2025), Decimal("860.25"))

    def test_unknown_year(self):
        with self.assertRaises(ValueError):
            compute_tax("1000", "single", year=2031)


if __name__ == "__main__":
    unittest.main()
