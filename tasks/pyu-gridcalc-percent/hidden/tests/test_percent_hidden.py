import unittest

from gridcalc.errors import FormulaSyntaxError
from gridcalc.rewrite import shift_formula
from gridcalc.values import parse_input

from tests.support import code, evaluate, sheet_with


class PercentOperatorTest(unittest.TestCase):
    def test_literal(self):
        self.assertEqual(evaluate("=50%"), 0.5)
        self.assertEqual(evaluate("=12.5%"), 0.125)

    def test_in_arithmetic(self):
        self.assertAlmostEqual(evaluate("=200*15%"), 30.0)
        self.assertAlmostEqual(evaluate("=1+50%"), 1.5)

    def test_binds_tighter_than_power_and_minus(self):
        self.assertEqual(evaluate("=2^200%"), 4.0)
        self.assertEqual(evaluate("=-50%"), -0.5)
        self.assertEqual(evaluate("=-(50)%^2"), 0.25)

    def test_applies_to_references_and_groups(self):
        self.assertAlmostEqual(evaluate("=A1%*B1", {"A1": "20", "B1": "80"}), 16.0)
        self.assertAlmostEqual(evaluate("=(A1+5)%", {"A1": "20"}), 0.25)
        self.assertAlmostEqual(evaluate("=SUM(A1:A2)%", {"A1": "20", "A2": "30"}), 0.5)

    def test_repeated(self):
        self.assertAlmostEqual(evaluate("=10%%"), 0.001)

    def test_coercion_and_errors(self):
        self.assertEqual(evaluate('="50"%'), 0.5)
        self.assertEqual(code(evaluate('="half"%')), "#VALUE!")
        self.assertEqual(code(evaluate("=A1%", {"A1": "=1/0"})), "#DIV/0!")
        self.assertEqual(code(evaluate("=A1:A2%", {"A1": "1", "A2": "2"})), "#VALUE!")

    def test_percent_of_percent_in_comparison(self):
        self.assertIs(evaluate("=50%=0.5"), True)

    def test_dependencies_seen_through_percent(self):
        sheet = sheet_with({"A1": "10", "B1": "=A1%"})
        sheet.set("A1", "30")
        self.assertAlmostEqual(sheet.get("B1"), 0.3)
        self.assertEqual(sheet.precedents("B1"), ["A1"])

    def test_copy_keeps_the_percent(self):
        self.assertEqual(shift_formula("A1%*2", 0, 1), "A2%*2")

    def test_modulo_is_still_not_an_operator(self):
        sheet = sheet_with({})
        with self.assertRaises(FormulaSyntaxError):
            sheet.set("A1", "=%5")


class PercentInputTest(unittest.TestCase):
    def test_typed_percentages(self):
        self.assertEqual(parse_input("12%"), 0.12)
        self.assertEqual(parse_input("-7.5%"), -0.075)
        self.assertEqual(parse_input("1,000%"), 10.0)

    def test_sheet_cell(self):
        sheet = sheet_with({"A1": "25%", "A2": "=A1*8"})
        self.assertEqual(sheet.get("A1"), 0.25)
        self.assertEqual(sheet.get("A2"), 2.0)
        self.assertEqual(sheet.input("A1"), "25%")

    def test_not_numbers(self):
        self.assertEqual(parse_input("%"), "%")
        self.assertEqual(parse_input("abc%"), "abc%")
        self.assertEqual(parse_input("5%%"), "5%%")


if __name__ == "__main__":
    unittest.main()
