import unittest

from gridcalc.errors import NA, REF

from tests.support import evaluate

TABLE = {
    "A1": "pear", "B1": "3",
    "A2": "apple", "B2": "5",
    "A3": "fig", "B3": "7",
    "A4": "10", "B4": "ten",
}


class LookupTest(unittest.TestCase):
    def test_match(self):
        self.assertEqual(evaluate('=MATCH("fig", A1:A4)', TABLE), 3.0)
        self.assertEqual(evaluate("=MATCH(10, A1:A4)", TABLE), 4.0)
        self.assertEqual(evaluate('=MATCH("kiwi", A1:A4)', TABLE), NA)

    def test_vlookup(self):
        self.assertEqual(evaluate('=VLOOKUP("apple", A1:B4, 2)', TABLE), 5.0)
        self.assertEqual(evaluate("=VLOOKUP(10, A1:B4, 2)", TABLE), "ten")
        self.assertEqual(evaluate('=VLOOKUP("kiwi", A1:B4, 2)', TABLE), NA)
        self.assertEqual(evaluate('=VLOOKUP("fig", A1:B4, 3)', TABLE), REF)


class ConditionalTest(unittest.TestCase):
    def test_countif_numbers(self):
        self.assertEqual(evaluate('=COUNTIF(B1:B4, ">4")', TABLE), 2.0)
        self.assertEqual(evaluate('=COUNTIF(B1:B4, "<>5")', TABLE), 3.0)

    def test_countif_text(self):
        self.assertEqual(evaluate('=COUNTIF(A1:A4, "fig")', TABLE), 1.0)

    def test_countif_blank(self):
        self.assertEqual(evaluate('=COUNTIF(A1:A6, "")', TABLE), 2.0)

    def test_sumif(self):
        self.assertEqual(evaluate('=SUMIF(A1:A4, "<>fig", B1:B4)', TABLE), 8.0)
        self.assertEqual(evaluate('=SUMIF(B1:B4, ">=5")', TABLE), 12.0)


if __name__ == "__main__":
    unittest.main()
