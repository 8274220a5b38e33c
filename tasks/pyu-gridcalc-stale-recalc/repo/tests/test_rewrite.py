import unittest

from gridcalc.rewrite import delete_rows_in_formula, insert_rows_in_formula, shift_formula


class ShiftTest(unittest.TestCase):
    def test_relative_refs_move(self):
        self.assertEqual(shift_formula("A1+B2*2", 1, 2), "B3+C4*2")

    def test_absolute_refs_stay(self):
        self.assertEqual(shift_formula("$A$1+B1", 3, 3), "$A$1+E4")

    def test_spelling_kept(self):
        self.assertEqual(shift_formula('sum( a1 : a3 ) & "A1"', 0, 1), 'sum( A2:A4 ) & "A1"')

    def test_off_the_sheet(self):
        self.assertEqual(shift_formula("A1+1", 0, -1), "#REF!+1")


class InsertRowsTest(unittest.TestCase):
    def test_refs_below_move_down(self):
        self.assertEqual(insert_rows_in_formula("A1+A5+$B$9", 2, 2), "A1+A7+$B$11")

    def test_range_spanning_grows(self):
        self.assertEqual(insert_rows_in_formula("SUM(A1:A5)", 2, 1), "SUM(A1:A6)")


class DeleteRowsTest(unittest.TestCase):
    def test_refs_below_move_up(self):
        self.assertEqual(delete_rows_in_formula("A1+A5+$B$9", 1, 2), "A1+A3+$B$7")

    def test_deleted_ref(self):
        self.assertEqual(delete_rows_in_formula("A2*2", 1, 1), "#REF!*2")

    def test_range_shrinks(self):
        self.assertEqual(delete_rows_in_formula("SUM(A1:A5)", 1, 2), "SUM(A1:A3)")


if __name__ == "__main__":
    unittest.main()
