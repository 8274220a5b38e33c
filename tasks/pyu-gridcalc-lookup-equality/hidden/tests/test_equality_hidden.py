import unittest

from gridcalc.values import compare

from tests.support import code, evaluate

PRICES = {
    "A1": "Pear", "B1": "3",
    "A2": "Apple", "B2": "5",
    "A3": "TRUE", "B3": "yes",
    "A4": "1", "B4": "one",
    "A5": "apple pie", "B5": "9",
}


class CompareTest(unittest.TestCase):
    def test_text_ignores_case(self):
        self.assertEqual(compare("Apple", "apple"), 0)
        self.assertEqual(compare("a", "B"), -1)
        self.assertEqual(compare("Zebra", "apple"), 1)

    def test_formula_comparisons(self):
        self.assertIs(evaluate('="Apple"="APPLE"'), True)
        self.assertIs(evaluate('="a"<"B"'), True)
        self.assertIs(evaluate('="abc"<>"ABC"'), False)

    def test_type_order_kept(self):
        self.assertEqual(compare(1.0, "1"), -1)
        self.assertEqual(compare("z", False), -1)
        self.assertEqual(compare(True, 1.0), 1)
        self.assertIs(evaluate('="10"=10'), False)

    def test_empty_against_text(self):
        self.assertEqual(compare(None, ""), 0)
        self.assertEqual(compare(None, "a"), -1)


class MatchTest(unittest.TestCase):
    def test_match_ignores_case(self):
        self.assertEqual(evaluate('=MATCH("APPLE", A1:A5)', PRICES), 2.0)
        self.assertEqual(evaluate('=MATCH("apple PIE", A1:A5)', PRICES), 5.0)

    def test_match_number_is_not_boolean(self):
        self.assertEqual(evaluate("=MATCH(1, A1:A5)", PRICES), 4.0)
        self.assertEqual(evaluate("=MATCH(TRUE, A1:A5)", PRICES), 3.0)
        self.assertEqual(code(evaluate("=MATCH(0, A3:A3)", PRICES)), "#N/A")

    def test_match_text_is_not_number(self):
        self.assertEqual(code(evaluate('=MATCH("1", A1:A5)', PRICES)), "#N/A")


class VlookupTest(unittest.TestCase):
    def test_vlookup_ignores_case(self):
        self.assertEqual(evaluate('=VLOOKUP("pear", A1:B5, 2)', PRICES), 3.0)

    def test_vlookup_number_is_not_boolean(self):
        self.assertEqual(evaluate("=VLOOKUP(1, A1:B5, 2)", PRICES), "one")
        self.assertEqual(evaluate("=VLOOKUP(TRUE, A1:B5, 2)", PRICES), "yes")


class CriteriaTest(unittest.TestCase):
    def test_countif_ignores_case(self):
        self.assertEqual(evaluate('=COUNTIF(A1:A5, "APPLE")', PRICES), 1.0)
        self.assertEqual(evaluate('=COUNTIF(A1:A5, "<>pear")', PRICES), 4.0)

    def test_sumif_ignores_case(self):
        self.assertEqual(evaluate('=SUMIF(A1:A5, "PEAR", B1:B5)', PRICES), 3.0)

    def test_countif_text_order(self):
        self.assertEqual(evaluate('=COUNTIF(A1:A5, ">b")', PRICES), 1.0)


if __name__ == "__main__":
    unittest.main()
