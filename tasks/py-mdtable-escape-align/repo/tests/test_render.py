import unittest

from mdtable import escape_cell, pad, render_table, separator


class CellTest(unittest.TestCase):
    def test_none_and_float(self):
        self.assertEqual(escape_cell(None), "")
        self.assertEqual(escape_cell(1 / 3), "0.333333")

    def test_newlines(self):
        self.assertEqual(escape_cell("a\nb"), "a<br>b")


class AlignTest(unittest.TestCase):
    def test_separators(self):
        self.assertEqual(separator(5), "-----")
        self.assertEqual(separator(5, "left"), ":----")
        self.assertEqual(separator(5, "center"), ":---:")

    def test_pad(self):
        self.assertEqual(pad("ab", 4, "right"), "  ab")
        self.assertEqual(pad("ab", 4), "ab  ")

    def test_bad_alignment(self):
        with self.assertRaises(ValueError):
            separator(3, "justify")


class RenderTest(unittest.TestCase):
    def test_simple_table(self):
        self.assertEqual(render_table(["Name", "Qty"], [["apple", 3], ["kiwi"]]), "\n".join([
            "| Name  | Qty |",
            "| ----- | --- |",
            "| apple | 3   |",
            "| kiwi  |     |",
        ]))

    def test_row_too_long(self):
        with self.assertRaises(ValueError):
            render_table(["a"], [[1, 2]])


if __name__ == "__main__":
    unittest.main()
