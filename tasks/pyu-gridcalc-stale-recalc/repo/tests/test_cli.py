import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr

from gridcalc.__main__ import main, render_table

from tests.support import sheet_with


class RenderTableTest(unittest.TestCase):
    def test_table(self):
        sheet = sheet_with({"A1": "item", "B1": "price", "A2": "tea", "B2": "3.5", "B3": "=B2*2"})
        self.assertEqual(
            render_table(sheet),
            "   A     B\n1  item  price\n2  tea     3.5\n3            7\n",
        )

    def test_empty(self):
        self.assertEqual(render_table(sheet_with({})), "")


class MainTest(unittest.TestCase):
    def run_main(self, content, *options):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "sheet.csv")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(content)
            out, err = io.StringIO(), io.StringIO()
            with redirect_stderr(err):
                status = main([path, *options], stdout=out)
        return status, out.getvalue(), err.getvalue()

    def test_csv_output(self):
        self.assertEqual(self.run_main("2,=A1*3\n", "--csv"), (0, "2,6\n", ""))

    def test_one_cell(self):
        self.assertEqual(self.run_main("2,=A1/0\n", "--cell", "B1"), (0, "#DIV/0!\n", ""))

    def test_syntax_error(self):
        status, out, err = self.run_main("=1+\n")
        self.assertEqual((status, out), (1, ""))
        self.assertIn("gridcalc:", err)

    def test_missing_file(self):
        err = io.StringIO()
        with redirect_stderr(err):
            status = main(["/nonexistent/sheet.csv"], stdout=io.StringIO())
        self.assertEqual(status, 1)


if __name__ == "__main__":
    unittest.main()
