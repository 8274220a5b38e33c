import unittest

from gridcalc import FormulaSyntaxError, Sheet
from gridcalc.errors import CYCLE, DIV0, NAME, REF

from tests.support import sheet_with


class SetAndGetTest(unittest.TestCase):
    def test_constants(self):
        sheet = sheet_with({"A1": "12", "A2": "note", "A3": "true"})
        self.assertEqual(sheet.get("A1"), 12.0)
        self.assertEqual(sheet.get("A2"), "note")
        self.assertIs(sheet.get("A3"), True)
        self.assertIsNone(sheet.get("A4"))

    def test_input_is_kept_as_typed(self):
        sheet = sheet_with({"A1": "1,000", "B1": "=a1*2"})
        self.assertEqual(sheet.input("A1"), "1,000")
        self.assertEqual(sheet.input("B1"), "=a1*2")
        self.assertEqual(sheet.get("B1"), 2000.0)

    def test_syntax_error_leaves_cell_unchanged(self):
        sheet = sheet_with({"A1": "5"})
        with self.assertRaises(FormulaSyntaxError):
            sheet.set("A1", "=1+")
        self.assertEqual(sheet.get("A1"), 5.0)

    def test_lone_equals_sign_is_text(self):
        self.assertEqual(sheet_with({"A1": "="}).get("A1"), "=")

    def test_clear(self):
        sheet = sheet_with({"A1": "5", "B1": "=A1+1"})
        sheet.clear("A1")
        self.assertEqual(sheet.get("B1"), 1.0)
        self.assertEqual(sheet.keys(), [(1, 0)])


class RecalculationTest(unittest.TestCase):
    def test_dependents_update(self):
        sheet = sheet_with({"A1": "1", "A2": "=A1*10", "A3": "=A2+A1"})
        sheet.set("A1", "2")
        self.assertEqual(sheet.get("A2"), 20.0)
        self.assertEqual(sheet.get("A3"), 22.0)

    def test_range_dependents_update(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "B1": "=SUM(A1:A3)"})
        sheet.set("A3", "10")
        self.assertEqual(sheet.get("B1"), 13.0)

    def test_formula_entered_before_its_inputs(self):
        sheet = sheet_with({"C1": "=A1/B1"})
        self.assertEqual(sheet.get("C1"), DIV0)
        sheet.set("B1", "4")
        sheet.set("A1", "2")
        self.assertEqual(sheet.get("C1"), 0.5)

    def test_cycle(self):
        sheet = sheet_with({"A1": "=B1+1", "B1": "=A1+1", "C1": "=A1*2"})
        self.assertEqual(sheet.get("A1"), CYCLE)
        self.assertEqual(sheet.get("B1"), CYCLE)
        self.assertEqual(sheet.get("C1"), CYCLE)

    def test_breaking_a_cycle(self):
        sheet = sheet_with({"A1": "=B1+1", "B1": "=A1+1"})
        sheet.set("B1", "=5")
        self.assertEqual(sheet.get("A1"), 6.0)

    def test_precedents(self):
        sheet = sheet_with({"C3": "=A1+SUM(B1:B2)"})
        self.assertEqual(sheet.precedents("C3"), ["A1", "B1", "B2"])


class CopyTest(unittest.TestCase):
    def test_copy_moves_relative_refs(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "B1": "=A1*10"})
        sheet.copy("B1", "B2")
        self.assertEqual(sheet.input("B2"), "=A2*10")
        self.assertEqual(sheet.get("B2"), 20.0)

    def test_fill_down_running_total(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "3", "B1": "=SUM($A$1:A1)"})
        sheet.fill_down("B1", 2)
        self.assertEqual([sheet.get(a) for a in ("B1", "B2", "B3")], [1.0, 3.0, 6.0])

    def test_fill_right(self):
        sheet = sheet_with({"A1": "1", "B1": "2", "C1": "3", "A2": "=A1*2"})
        sheet.fill_right("A2", 2)
        self.assertEqual(sheet.input("C2"), "=C1*2")
        self.assertEqual(sheet.get("C2"), 6.0)

    def test_copy_off_the_sheet(self):
        sheet = sheet_with({"B2": "=A1"})
        sheet.copy("B2", "A1")
        self.assertEqual(sheet.get("A1"), REF)

    def test_copy_constant_and_format(self):
        sheet = sheet_with({"A1": "0.5"})
        sheet.set_format("A1", "0%")
        sheet.copy("A1", "B1")
        self.assertEqual(sheet.display("B1"), "50%")


class RowsTest(unittest.TestCase):
    def test_insert_rows(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "=SUM(A1:A2)"})
        sheet.insert_rows(2, 1)
        self.assertEqual(sheet.get("A3"), 2.0)
        self.assertEqual(sheet.input("A4"), "=SUM(A1:A3)")
        sheet.set("A2", "10")
        self.assertEqual(sheet.get("A4"), 13.0)

    def test_delete_rows(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "3", "A4": "=SUM(A1:A3)", "B4": "=A2"})
        sheet.delete_rows(2)
        self.assertEqual(sheet.input("A3"), "=SUM(A1:A2)")
        self.assertEqual(sheet.get("A3"), 4.0)
        self.assertEqual(sheet.get("B3"), REF)

    def test_formats_move_with_rows(self):
        sheet = sheet_with({"A2": "0.25"})
        sheet.set_format("A2", "0%")
        sheet.insert_rows(1)
        self.assertEqual(sheet.display("A3"), "25%")


class NamesTest(unittest.TestCase):
    def test_named_range(self):
        sheet = sheet_with({"B1": "1", "B2": "2", "C1": "=SUM(Prices)*2"})
        self.assertEqual(sheet.get("C1"), NAME)
        sheet.define_name("prices", "B1:B2")
        self.assertEqual(sheet.get("C1"), 6.0)
        sheet.set("B2", "5")
        self.assertEqual(sheet.get("C1"), 12.0)
        self.assertEqual(sheet.names(), {"PRICES": "B1:B2"})

    def test_invalid_names(self):
        sheet = Sheet()
        for bad in ("A1", "1x", "true", "has space"):
            with self.subTest(name=bad):
                with self.assertRaises(ValueError):
                    sheet.define_name(bad, "A1")


class DisplayTest(unittest.TestCase):
    def test_display(self):
        sheet = sheet_with({"A1": "1234.5", "A2": "=A1/0", "A3": "=1/3"})
        sheet.set_format("A1", "#,##0.00")
        self.assertEqual(sheet.display("A1"), "1,234.50")
        self.assertEqual(sheet.display("A2"), "#DIV/0!")
        self.assertEqual(sheet.display("A3"), "0.3333333333")
        self.assertEqual(Sheet().display("A1"), "")


if __name__ == "__main__":
    unittest.main()
