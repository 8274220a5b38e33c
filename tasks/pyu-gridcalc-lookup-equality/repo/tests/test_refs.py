import unittest

from gridcalc.refs import (
    AddressError, CellRef, RangeRef, column_to_index, index_to_column, key_to_address,
    parse_range, parse_ref,
)


class ColumnNameTest(unittest.TestCase):
    def test_single_letters(self):
        self.assertEqual(column_to_index("A"), 0)
        self.assertEqual(column_to_index("z"), 25)
        self.assertEqual(index_to_column(0), "A")
        self.assertEqual(index_to_column(25), "Z")

    def test_rejects_non_letters(self):
        with self.assertRaises(AddressError):
            column_to_index("A1")
        with self.assertRaises(AddressError):
            index_to_column(-1)


class CellRefTest(unittest.TestCase):
    def test_parse_plain_and_absolute(self):
        self.assertEqual(parse_ref("B7"), CellRef(1, 6))
        self.assertEqual(parse_ref("$B$7"), CellRef(1, 6, True, True))
        self.assertEqual(str(parse_ref("$c$3")), "$C$3")

    def test_row_zero_is_not_an_address(self):
        with self.assertRaises(AddressError):
            parse_ref("A0")

    def test_shift_relative(self):
        self.assertEqual(str(parse_ref("B2").shifted(2, 3)), "D5")

    def test_shift_absolute_stays(self):
        self.assertEqual(str(parse_ref("$B$2").shifted(2, 3)), "$B$2")

    def test_shift_off_the_sheet(self):
        with self.assertRaises(AddressError):
            parse_ref("A1").shifted(0, -1)

    def test_key_to_address(self):
        self.assertEqual(key_to_address((2, 9)), "C10")


class RangeRefTest(unittest.TestCase):
    def test_parse_range(self):
        rng = parse_range("A1:B3")
        self.assertEqual((rng.width, rng.height), (2, 3))
        self.assertEqual(list(rng.keys())[:3], [(0, 0), (1, 0), (0, 1)])

    def test_corners_in_any_order(self):
        self.assertEqual(str(parse_range("B3:A1")), "A1:B3")

    def test_single_cell_range(self):
        self.assertEqual(list(parse_range("C2").keys()), [(2, 1)])

    def test_contains(self):
        rng = parse_range("B2:C4")
        self.assertIn((2, 3), rng)
        self.assertNotIn((0, 3), rng)

    def test_from_corners_keeps_flags(self):
        rng = RangeRef.from_corners(parse_ref("$A$1"), parse_ref("B2"))
        self.assertEqual(str(rng), "$A$1:B2")


if __name__ == "__main__":
    unittest.main()
