import csv
import io
import unittest

from gridcalc.csvio import export_values, import_csv
from gridcalc.refs import AddressError, CellRef, column_to_index, index_to_column, parse_ref

from tests.support import sheet_with


class ColumnLettersTest(unittest.TestCase):
    def test_two_letter_columns(self):
        self.assertEqual(column_to_index("AA"), 26)
        self.assertEqual(column_to_index("AZ"), 51)
        self.assertEqual(column_to_index("ba"), 52)
        self.assertEqual(column_to_index("ZZ"), 701)

    def test_three_letter_columns(self):
        self.assertEqual(column_to_index("AAA"), 702)
        self.assertEqual(column_to_index("XFD"), 16383)

    def test_index_to_column(self):
        self.assertEqual(index_to_column(26), "AA")
        self.assertEqual(index_to_column(51), "AZ")
        self.assertEqual(index_to_column(52), "BA")
        self.assertEqual(index_to_column(701), "ZZ")
        self.assertEqual(index_to_column(702), "AAA")

    def test_round_trip(self):
        for index in range(0, 16384, 13):
            self.assertEqual(column_to_index(index_to_column(index)), index)

    def test_single_letters_unchanged(self):
        self.assertEqual([index_to_column(i) for i in (0, 1, 25)], ["A", "B", "Z"])
        self.assertEqual(column_to_index("M"), 12)


class WideAddressTest(unittest.TestCase):
    def test_parse_wide_address(self):
        self.assertEqual(parse_ref("AA10"), CellRef(26, 9))
        self.assertEqual(str(CellRef(27, 0, True, False)), "$AB1")

    def test_last_column(self):
        self.assertEqual(parse_ref("XFD1").col, 16383)
        with self.assertRaises(AddressError):
            parse_ref("XFE1")

    def test_formula_reads_wide_cell(self):
        sheet = sheet_with({"A1": "1", "AA1": "5", "B1": "=AA1*2", "C1": "=SUM(Z1:AB1)"})
        self.assertEqual(sheet.get("B1"), 10.0)
        self.assertEqual(sheet.get("C1"), 5.0)
        sheet.set("AB1", "7")
        self.assertEqual(sheet.get("C1"), 12.0)

    def test_fill_right_past_z(self):
        sheet = sheet_with({"Y2": "1", "Z2": "2", "AA2": "3", "AB2": "4", "Y1": "=Y2*10"})
        sheet.fill_right("Y1", 3)
        self.assertEqual(sheet.input("AA1"), "=AA2*10")
        self.assertEqual(sheet.input("AB1"), "=AB2*10")
        self.assertEqual(sheet.get("AB1"), 40.0)

    def test_precedents_named_with_wide_columns(self):
        sheet = sheet_with({"A1": "=AC3+BA1"})
        self.assertEqual(sheet.precedents("A1"), ["AC3", "BA1"])


class WideCsvTest(unittest.TestCase):
    def test_header_past_z(self):
        sheet = sheet_with({"AB1": "x"})
        head = next(csv.reader(io.StringIO(export_values(sheet, header=True))))
        self.assertEqual(len(head), 28)
        self.assertEqual(head[25:], ["Z", "AA", "AB"])

    def test_import_wide_rows(self):
        fields = [str(n) for n in range(30)]
        sheet = import_csv(",".join(fields) + ",=SUM(A1:AD1)\n")
        self.assertEqual(sheet.get("AA1"), 26.0)
        self.assertEqual(sheet.get("AD1"), 29.0)
        self.assertEqual(sheet.get("AE1"), float(sum(range(30))))


if __name__ == "__main__":
    unittest.main()
