import unittest

from gridcalc.refs import CellRef, parse_ref
from gridcalc.rewrite import shift_formula

from tests.support import sheet_with


class MixedRefTest(unittest.TestCase):
    def test_parse_mixed(self):
        self.assertEqual(parse_ref("$A1"), CellRef(0, 0, True, False))
        self.assertEqual(parse_ref("A$1"), CellRef(0, 0, False, True))
        self.assertEqual(str(parse_ref("$bc12")), "$BC12")
        self.assertEqual(str(parse_ref("C$3")), "C$3")

    def test_shift_mixed(self):
        self.assertEqual(str(parse_ref("$A1").shifted(2, 2)), "$A3")
        self.assertEqual(str(parse_ref("A$1").shifted(2, 2)), "C$1")

    def test_shift_formula(self):
        self.assertEqual(shift_formula("$A2*B$1", 1, 1), "$A3*C$1")
        self.assertEqual(shift_formula("SUM($A1:A$1)", 1, 1), "SUM($A2:B$1)")

    def test_multiplication_table(self):
        cells = {f"A{n + 1}": str(n) for n in range(1, 5)}
        cells.update({f"{col}1": str(n) for n, col in enumerate("BCDE", start=1)})
        cells["B2"] = "=$A2*B$1"
        sheet = sheet_with(cells)
        sheet.fill_right("B2", 3)
        for col in "BCDE":
            sheet.fill_down(f"{col}2", 3)
        self.assertEqual(sheet.input("E5"), "=$A5*E$1")
        self.assertEqual(sheet.get("E5"), 16.0)
        self.assertEqual(sheet.get("C4"), 6.0)
        self.assertEqual(sheet.get("D2"), 3.0)

    def test_plain_and_absolute_unchanged(self):
        self.assertEqual(shift_formula("$A$1+B2", 1, 1), "$A$1+C3")


class ReversedRangeTest(unittest.TestCase):
    def test_reversed_range_in_formula(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "4", "B1": "=SUM(A3:A1)"})
        self.assertEqual(sheet.get("B1"), 7.0)
        self.assertEqual(sheet.precedents("B1"), ["A1", "A2", "A3"])
        sheet.set("A2", "10")
        self.assertEqual(sheet.get("B1"), 15.0)

    def test_reversed_columns(self):
        sheet = sheet_with({"A1": "1", "B1": "2", "C1": "3", "A2": "=PRODUCT(C1:A1)", "B2": "=COUNTA(C1:A1)"})
        self.assertEqual(sheet.get("A2"), 6.0)
        self.assertEqual(sheet.get("B2"), 3.0)

    def test_lookup_in_reversed_range(self):
        sheet = sheet_with({"A1": "x", "B1": "1", "A2": "y", "B2": "2", "C1": '=VLOOKUP("y", B2:A1, 2)'})
        self.assertEqual(sheet.get("C1"), 2.0)

    def test_remaining_total_filled_up(self):
        cells = {f"B{row}": str(row) for row in range(1, 11)}
        cells["C10"] = "=SUM(B$10:B10)"
        sheet = sheet_with(cells)
        for row in range(1, 10):
            sheet.copy("C10", f"C{row}")
        self.assertEqual(sheet.get("C10"), 10.0)
        self.assertEqual(sheet.get("C9"), 19.0)
        self.assertEqual(sheet.get("C1"), 55.0)
        sheet.set("B10", "0")
        self.assertEqual(sheet.get("C5"), 35.0)


if __name__ == "__main__":
    unittest.main()
