import unittest

from tests.support import code, sheet_with


def inputs_after_delete(formula, at, count=1):
    """The formula text in Z50 after deleting rows (Z50 itself stays below them)."""
    sheet = sheet_with({"Z50": formula})
    sheet.delete_rows(at, count)
    return sheet.input((25, 49 - count))


class DeleteRowsFormulaTest(unittest.TestCase):
    def test_refs_above_unchanged(self):
        self.assertEqual(inputs_after_delete("=A1+B2", 5), "=A1+B2")

    def test_refs_below_move_up(self):
        self.assertEqual(inputs_after_delete("=A10+B6", 3, 2), "=A8+B4")

    def test_absolute_refs_move_too(self):
        self.assertEqual(inputs_after_delete("=$B$9*B$9+$B9", 2, 3), "=$B$6*B$6+$B6")

    def test_deleted_ref(self):
        self.assertEqual(inputs_after_delete("=A3*2+A4", 3), "=#REF!*2+A3")

    def test_range_spanning_shrinks(self):
        self.assertEqual(inputs_after_delete("=SUM(A1:A10)", 4, 3), "=SUM(A1:A7)")

    def test_range_top_deleted(self):
        self.assertEqual(inputs_after_delete("=SUM(A3:B8)", 2, 3), "=SUM(A2:B5)")

    def test_range_bottom_deleted(self):
        self.assertEqual(inputs_after_delete("=SUM(A3:A8)", 7, 4), "=SUM(A3:A6)")

    def test_range_wholly_deleted(self):
        self.assertEqual(inputs_after_delete("=SUM(C4:C6)+1", 4, 3), "=SUM(#REF!)+1")

    def test_range_below_moves(self):
        self.assertEqual(inputs_after_delete("=MAX($A$20:A30)", 1, 5), "=MAX($A$15:A25)")

    def test_text_and_functions_kept(self):
        self.assertEqual(inputs_after_delete('=IF(A9>0, "A9", lower("X"))', 1), '=IF(A8>0, "A9", lower("X"))')


class DeleteRowsSheetTest(unittest.TestCase):
    def test_cells_move_up_and_values_follow(self):
        sheet = sheet_with({
            "A1": "10", "A2": "20", "A3": "30", "A4": "40",
            "B4": "=SUM(A1:A4)", "C1": "=A4/2",
        })
        sheet.delete_rows(2, 2)
        self.assertEqual(sheet.get("A2"), 40.0)
        self.assertEqual(sheet.input("B2"), "=SUM(A1:A2)")
        self.assertEqual(sheet.get("B2"), 50.0)
        self.assertEqual(sheet.input("C1"), "=A2/2")
        self.assertEqual(sheet.get("C1"), 20.0)
        self.assertIsNone(sheet.get("A3"))
        self.assertIsNone(sheet.get("A4"))

    def test_reference_to_deleted_cell(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "B1": "=A2*3", "B3": "=B1+1"})
        sheet.delete_rows(2)
        self.assertEqual(sheet.input("B1"), "=#REF!*3")
        self.assertEqual(code(sheet.get("B1")), "#REF!")
        self.assertEqual(code(sheet.get("B2")), "#REF!")

    def test_recalculates_after_delete(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "3", "A4": "=SUM(A1:A3)"})
        sheet.delete_rows(1)
        self.assertEqual(sheet.get("A3"), 5.0)
        sheet.set("A1", "10")
        self.assertEqual(sheet.get("A3"), 13.0)

    def test_formats_move_and_deleted_ones_go(self):
        sheet = sheet_with({"A1": "0.5", "A2": "0.25", "A3": "0.125"})
        sheet.set_format("A2", "0.00")
        sheet.set_format("A3", "0.0%")
        sheet.delete_rows(2)
        self.assertEqual(sheet.display("A2"), "12.5%")
        self.assertIsNone(sheet.format_of("A3"))
        self.assertIsNone(sheet.format_of("A1"))

    def test_delete_below_used_rows(self):
        sheet = sheet_with({"A1": "1", "B1": "=A1+1"})
        sheet.delete_rows(5, 10)
        self.assertEqual(sheet.get("B1"), 2.0)
        self.assertEqual(sheet.keys(), [(0, 0), (1, 0)])

    def test_insert_then_delete_restores(self):
        sheet = sheet_with({"A1": "1", "A2": "2", "A3": "=A1+A2"})
        sheet.insert_rows(2, 2)
        sheet.delete_rows(2, 2)
        self.assertEqual(sheet.input("A3"), "=A1+A2")
        self.assertEqual(sheet.get("A3"), 3.0)

    def test_insert_rows_unchanged(self):
        sheet = sheet_with({"A1": "1", "A2": "=A1*2"})
        sheet.insert_rows(1)
        self.assertEqual(sheet.input("A3"), "=A2*2")
        self.assertEqual(sheet.get("A3"), 2.0)


if __name__ == "__main__":
    unittest.main()
