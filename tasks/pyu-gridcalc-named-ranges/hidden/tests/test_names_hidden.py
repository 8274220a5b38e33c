import unittest

from gridcalc import FormulaSyntaxError, Sheet
from gridcalc.rewrite import shift_formula

from tests.support import code, sheet_with

PRICES = {"A1": "pear", "B1": "3", "A2": "fig", "B2": "5", "A3": "kiwi", "B3": "7", "D1": "0.5"}


class DefineNameTest(unittest.TestCase):
    def test_named_range_in_functions(self):
        sheet = sheet_with(PRICES)
        sheet.define_name("prices", "B1:B3")
        sheet.define_name("Fruit", "A1:B3")
        sheet.set("E1", "=SUM(prices)")
        sheet.set("E2", '=VLOOKUP("fig", fruit, 2)')
        sheet.set("E3", "=COUNTIF(PRICES, \">4\")")
        self.assertEqual(sheet.get("E1"), 15.0)
        self.assertEqual(sheet.get("E2"), 5.0)
        self.assertEqual(sheet.get("E3"), 2.0)

    def test_single_cell_name_is_a_value(self):
        sheet = sheet_with(PRICES)
        sheet.define_name("discount", "$D$1")
        sheet.set("C1", "=B1*(1-discount)")
        self.assertEqual(sheet.get("C1"), 1.5)

    def test_case_insensitive(self):
        sheet = sheet_with(PRICES)
        sheet.define_name("Tax_Rate", "D1")
        sheet.set("C1", "=tax_rate*2+TAX_RATE")
        self.assertEqual(sheet.get("C1"), 1.5)
        sheet.define_name("Prices", "B1:B3")
        self.assertEqual(sheet.names(), {"PRICES": "B1:B3", "TAX_RATE": "D1"})

    def test_undefined_name_is_an_error_value(self):
        sheet = sheet_with({"A1": "=SUM(nothing)+1"})
        self.assertEqual(code(sheet.get("A1")), "#NAME?")
        sheet.set("A2", "=IFERROR(missing, 0)")
        self.assertEqual(sheet.get("A2"), 0.0)

    def test_formula_before_definition(self):
        sheet = sheet_with(dict(PRICES, C1="=MAX(prices)"))
        self.assertEqual(code(sheet.get("C1")), "#NAME?")
        sheet.define_name("prices", "B1:B3")
        self.assertEqual(sheet.get("C1"), 7.0)

    def test_cells_under_a_name_are_dependencies(self):
        sheet = sheet_with(PRICES)
        sheet.define_name("prices", "B1:B3")
        sheet.set("C1", "=SUM(prices)")
        sheet.set("C2", "=C1*2")
        sheet.set("B2", "10")
        self.assertEqual(sheet.get("C1"), 20.0)
        self.assertEqual(sheet.get("C2"), 40.0)
        self.assertEqual(sheet.precedents("C1"), ["B1", "B2", "B3"])

    def test_redefining_moves_the_name(self):
        sheet = sheet_with(dict(PRICES, C1="=SUM(prices)"))
        sheet.define_name("prices", "B1:B2")
        self.assertEqual(sheet.get("C1"), 8.0)
        sheet.define_name("prices", "B2:B3")
        self.assertEqual(sheet.get("C1"), 12.0)
        sheet.set("B1", "100")
        self.assertEqual(sheet.get("C1"), 12.0)
        sheet.set("B3", "1")
        self.assertEqual(sheet.get("C1"), 6.0)

    def test_remove_name(self):
        sheet = sheet_with(dict(PRICES, C1="=SUM(prices)"))
        sheet.define_name("prices", "B1:B3")
        sheet.remove_name("PRICES")
        self.assertEqual(code(sheet.get("C1")), "#NAME?")
        self.assertEqual(sheet.names(), {})

    def test_name_in_a_cycle(self):
        sheet = Sheet()
        sheet.define_name("total", "A1")
        sheet.set("A1", "=total+1")
        self.assertEqual(code(sheet.get("A1")), "#CYCLE!")

    def test_copy_keeps_names(self):
        self.assertEqual(shift_formula("SUM(prices)+A1", 0, 1), "SUM(prices)+A2")


class InvalidNameTest(unittest.TestCase):
    def test_rejected_names(self):
        sheet = Sheet()
        for bad in ("B2", "$A$1", "xfd10", "TRUE", "false", "2x", "a b", "", "rate-1"):
            with self.subTest(name=bad):
                with self.assertRaises(ValueError):
                    sheet.define_name(bad, "A1")

    def test_accepted_names(self):
        sheet = Sheet()
        for good in ("rates", "_x", "Q_1", "A", "tax.rate"):
            sheet.define_name(good, "A1")
        self.assertEqual(sorted(sheet.names()), ["A", "Q_1", "RATES", "TAX.RATE", "_X"])
        sheet.set("B1", "4")
        sheet.define_name("a", "B1")
        sheet.set("C1", "=a*Q_1+tax.rate")
        self.assertEqual(sheet.get("C1"), 0.0)
        sheet.set("A1", "2")
        self.assertEqual(sheet.get("C1"), 10.0)

    def test_bad_reference(self):
        with self.assertRaises(ValueError):
            Sheet().define_name("rates", "not a range")

    def test_syntax_errors_still_raised(self):
        sheet = Sheet()
        with self.assertRaises(FormulaSyntaxError):
            sheet.set("A1", "=rates rates")


if __name__ == "__main__":
    unittest.main()
