import unittest

from gridcalc.errors import DIV0, NAME, VALUE

from tests.support import evaluate

NUMBERS = {"A1": "1", "A2": "2", "A3": "hello", "A4": "TRUE", "A5": "4"}


class AggregateTest(unittest.TestCase):
    def test_sum_skips_text_and_booleans_in_ranges(self):
        self.assertEqual(evaluate("=SUM(A1:A5)", NUMBERS), 7.0)

    def test_sum_converts_direct_arguments(self):
        self.assertEqual(evaluate('=SUM("3", TRUE, 1)'), 5.0)
        self.assertEqual(evaluate('=SUM("three")'), VALUE)

    def test_average(self):
        self.assertAlmostEqual(evaluate("=AVERAGE(A1:A5)", NUMBERS), 7 / 3)
        self.assertEqual(evaluate("=AVERAGE(A3:A4)", NUMBERS), DIV0)

    def test_min_max_product(self):
        self.assertEqual(evaluate("=MIN(A1:A5)", NUMBERS), 1.0)
        self.assertEqual(evaluate("=MAX(A1:A5, 10)", NUMBERS), 10.0)
        self.assertEqual(evaluate("=PRODUCT(A1:A5)", NUMBERS), 8.0)
        self.assertEqual(evaluate("=MAX(A3:A4)", NUMBERS), 0.0)

    def test_count_and_counta(self):
        cells = dict(NUMBERS, A6="=1/0")
        self.assertEqual(evaluate("=COUNT(A1:A6)", cells), 3.0)
        self.assertEqual(evaluate("=COUNTA(A1:A7)", cells), 6.0)


class ScalarMathTest(unittest.TestCase):
    def test_round(self):
        self.assertEqual(evaluate("=ROUND(3.14159, 2)"), 3.14)
        self.assertEqual(evaluate("=ROUND(1234.5678, -2)"), 1200.0)

    def test_abs_mod_sqrt(self):
        self.assertEqual(evaluate("=ABS(-3)"), 3.0)
        self.assertEqual(evaluate("=MOD(-7, 3)"), 2.0)
        self.assertEqual(evaluate("=MOD(1, 0)"), DIV0)
        self.assertEqual(evaluate("=SQRT(16)"), 4.0)
        self.assertEqual(evaluate("=SQRT(-1)"), VALUE)

    def test_argument_count_checked(self):
        self.assertEqual(evaluate("=ABS(1, 2)"), VALUE)
        self.assertEqual(evaluate("=ROUND()"), VALUE)

    def test_unknown_function(self):
        self.assertEqual(evaluate("=NOPE(1)"), NAME)


if __name__ == "__main__":
    unittest.main()
