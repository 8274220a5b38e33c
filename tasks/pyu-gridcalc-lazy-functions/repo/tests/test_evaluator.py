import unittest

from gridcalc.errors import DIV0, VALUE
from gridcalc.evaluator import Evaluator
from gridcalc.parser import parse

from tests.support import evaluate


class EvaluatorTest(unittest.TestCase):
    def test_arithmetic(self):
        self.assertEqual(evaluate("=1+2*3-4/2"), 5.0)
        self.assertEqual(evaluate("=2^3^2"), 64.0)
        self.assertEqual(evaluate("=-2^2"), 4.0)
        self.assertEqual(evaluate("=(1+2)*3"), 9.0)

    def test_division_by_zero(self):
        self.assertEqual(evaluate("=1/0"), DIV0)
        self.assertEqual(evaluate("=0^-1"), DIV0)

    def test_text_that_looks_like_a_number(self):
        self.assertEqual(evaluate('="4"*2'), 8.0)
        self.assertEqual(evaluate('="four"*2'), VALUE)

    def test_empty_cells_are_zero(self):
        self.assertEqual(evaluate("=A1+1"), 1.0)
        self.assertEqual(evaluate("=A1"), 0.0)

    def test_comparisons(self):
        self.assertIs(evaluate("=2>1"), True)
        self.assertIs(evaluate("=1+1=2"), True)
        self.assertIs(evaluate('="a"<"b"'), True)
        self.assertIs(evaluate("=3<>3"), False)

    def test_errors_propagate_through_operators(self):
        self.assertEqual(evaluate("=A1+1", {"A1": "=1/0"}), DIV0)
        self.assertEqual(evaluate('=A1&"x"', {"A1": "=1/0"}), DIV0)

    def test_range_as_a_value(self):
        self.assertEqual(evaluate("=A1:A2", {"A1": "1", "A2": "2"}), VALUE)
        self.assertEqual(evaluate("=A1:A1", {"A1": "1"}), 1.0)
        self.assertEqual(evaluate("=A1:A2+1", {"A1": "1", "A2": "2"}), VALUE)

    def test_overflow_is_an_error(self):
        self.assertEqual(evaluate("=10^400"), VALUE)

    def test_read_callback(self):
        cells = {(0, 0): 2.0, (1, 0): 3.0}
        evaluator = Evaluator(cells.get)
        self.assertEqual(evaluator.evaluate(parse("A1*B1")), 6.0)


if __name__ == "__main__":
    unittest.main()
