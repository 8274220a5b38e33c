import unittest

from tests.support import code, evaluate, sheet_with

CELLS = {"A1": "4", "A2": "=1/0", "A3": "6", "B1": '=MATCH("zz", A1:A3)', "B2": "2", "C1": '="x"*2'}


class AggregatesTest(unittest.TestCase):
    def test_sum_of_range_with_error(self):
        self.assertEqual(code(evaluate("=SUM(A1:A3)", CELLS)), "#DIV/0!")

    def test_other_aggregates(self):
        self.assertEqual(code(evaluate("=AVERAGE(B1:B2)", CELLS)), "#N/A")
        self.assertEqual(code(evaluate("=MAX(A1:A3)", CELLS)), "#DIV/0!")
        self.assertEqual(code(evaluate("=MIN(A3, C1:C2)", CELLS)), "#VALUE!")
        self.assertEqual(code(evaluate("=PRODUCT(A1:A3)", CELLS)), "#DIV/0!")

    def test_iferror_around_an_aggregate(self):
        self.assertEqual(evaluate("=IFERROR(SUM(A1:A3), -1)", CELLS), -1.0)
        self.assertEqual(evaluate("=IFERROR(SUM(A1, A3), -1)", CELLS), 10.0)

    def test_error_reaches_dependents(self):
        sheet = sheet_with(dict(CELLS, D1="=SUM(A1:A3)*2", D2="=ISERROR(D1)"))
        self.assertEqual(code(sheet.get("D1")), "#DIV/0!")
        self.assertIs(sheet.get("D2"), True)
        sheet.set("A2", "5")
        self.assertEqual(sheet.get("D1"), 30.0)
        self.assertIs(sheet.get("D2"), False)

    def test_count_still_skips_errors(self):
        self.assertEqual(evaluate("=COUNT(A1:A3)", CELLS), 2.0)
        self.assertEqual(evaluate("=COUNTA(A1:A3)", CELLS), 3.0)

    def test_text_in_ranges_still_skipped(self):
        self.assertEqual(evaluate("=SUM(A1:A2)", {"A1": "4", "A2": "four"}), 4.0)


class TextOfErrorsTest(unittest.TestCase):
    def test_concat(self):
        self.assertEqual(code(evaluate('=CONCAT(A2, "x")', CELLS)), "#DIV/0!")
        self.assertEqual(code(evaluate("=CONCAT(A1:A3)", CELLS)), "#DIV/0!")

    def test_text_functions(self):
        self.assertEqual(code(evaluate("=LEN(A2)", CELLS)), "#DIV/0!")
        self.assertEqual(code(evaluate("=UPPER(B1)", CELLS)), "#N/A")
        self.assertEqual(code(evaluate("=LEFT(C1, 2)", CELLS)), "#VALUE!")
        self.assertEqual(code(evaluate("=TRIM(A2)", CELLS)), "#DIV/0!")

    def test_error_codes_as_text_are_just_text(self):
        self.assertEqual(evaluate('=LEN("#DIV/0!")'), 7.0)
        self.assertEqual(evaluate('=CONCAT("#N/A", 1)'), "#N/A1")

    def test_concat_operator_unchanged(self):
        self.assertEqual(code(evaluate('=A2&"x"', CELLS)), "#DIV/0!")
        self.assertEqual(evaluate('=A1&"x"', CELLS), "4x")


if __name__ == "__main__":
    unittest.main()
