import unittest

from mdtable import escape_cell, render_table, separator


class EscapeAlignTest(unittest.TestCase):
    def test_pipe_is_escaped(self):
        self.assertEqual(escape_cell("a|b"), "a\\|b")

    def test_right_separator(self):
        self.assertEqual(separator(5, "right"), "----:")
        self.assertEqual(separator(1, "right"), "--:")

    def test_table_with_pipe_and_right_alignment(self):
        table = render_table(["Expr", "Value"], [["x | y", 1.5], ["z", 10]], align=["left", "right"])
        self.assertEqual(table, "\n".join([
            "| Expr   | Value |",
            "| :----- | ----: |",
            "| x \\| y |   1.5 |",
            "| z      |    10 |",
        ]))

    def test_left_separator_unchanged(self):
        self.assertEqual(separator(4, "left"), ":---")

    def test_center_table(self):
        table = render_table(["id"], [[7]], align=["center"])
        self.assertEqual(table.splitlines()[1:], ["| :-: |", "|  7  |"])


if __name__ == "__main__":
    unittest.main()
