import unittest

from gridcalc.errors import VALUE

from tests.support import evaluate


class TextFunctionTest(unittest.TestCase):
    def test_concat_and_operator(self):
        self.assertEqual(evaluate('=CONCAT("a", 1, TRUE)'), "a1TRUE")
        self.assertEqual(evaluate('="x"&2.50&"y"'), "x2.5y")
        self.assertEqual(evaluate("=CONCAT(A1:B1)", {"A1": "ab", "B1": "cd"}), "abcd")

    def test_len_upper_lower_trim(self):
        self.assertEqual(evaluate('=LEN("hello")'), 5.0)
        self.assertEqual(evaluate('=UPPER("MiXed")'), "MIXED")
        self.assertEqual(evaluate('=LOWER("MiXed")'), "mixed")
        self.assertEqual(evaluate('=TRIM("  a   b ")'), "a b")

    def test_left_right_mid(self):
        self.assertEqual(evaluate('=LEFT("spreadsheet", 6)'), "spread")
        self.assertEqual(evaluate('=LEFT("abc")'), "a")
        self.assertEqual(evaluate('=RIGHT("spreadsheet", 5)'), "sheet")
        self.assertEqual(evaluate('=RIGHT("abc", 0)'), "")
        self.assertEqual(evaluate('=MID("spreadsheet", 3, 4)'), "read")
        self.assertEqual(evaluate('=LEFT("abc", -1)'), VALUE)

    def test_text_function_formats(self):
        self.assertEqual(evaluate('=TEXT(1234.5, "#,##0.00")'), "1,234.50")
        self.assertEqual(evaluate('=TEXT(0.125, "0.0%")'), "12.5%")
        self.assertEqual(evaluate('=TEXT(1, "bogus")'), VALUE)


if __name__ == "__main__":
    unittest.main()
