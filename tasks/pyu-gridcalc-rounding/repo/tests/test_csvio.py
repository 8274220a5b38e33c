import unittest

from gridcalc.csvio import export_inputs, export_values, import_csv

from tests.support import sheet_with


class ExportTest(unittest.TestCase):
    def test_values(self):
        sheet = sheet_with({"A1": "x", "B1": "2", "B2": "=B1*1.5", "C3": "=1/0"})
        self.assertEqual(export_values(sheet), "x,2,\n,3,\n,,#DIV/0!\n")

    def test_header(self):
        sheet = sheet_with({"B1": "1"})
        self.assertEqual(export_values(sheet, header=True), "A,B\n,1\n")

    def test_formatted_and_raw(self):
        sheet = sheet_with({"A1": "1234.5"})
        sheet.set_format("A1", "#,##0.00")
        self.assertEqual(export_values(sheet), '"1,234.50"\n')
        self.assertEqual(export_values(sheet, formatted=False), "1234.5\n")

    def test_inputs_keep_formulas(self):
        sheet = sheet_with({"A1": "2", "A2": '=CONCAT("a,b", A1)'})
        self.assertEqual(export_inputs(sheet), '2\n"=CONCAT(""a,b"", A1)"\n')

    def test_empty_sheet(self):
        self.assertEqual(export_values(sheet_with({})), "")


class ImportTest(unittest.TestCase):
    def test_import_evaluates(self):
        sheet = import_csv("1,2,=A1+B1\nname,,=C1*2\n")
        self.assertEqual(sheet.get("C1"), 3.0)
        self.assertEqual(sheet.get("C2"), 6.0)
        self.assertEqual(sheet.get("A2"), "name")
        self.assertIsNone(sheet.get("B2"))

    def test_round_trip_of_inputs(self):
        sheet = sheet_with({"A1": "3", "B2": "=A1&\" items\"", "C1": "TRUE"})
        again = import_csv(export_inputs(sheet))
        for address in ("A1", "B2", "C1"):
            self.assertEqual(again.input(address), sheet.input(address))
            self.assertEqual(again.get(address), sheet.get(address))


if __name__ == "__main__":
    unittest.main()
