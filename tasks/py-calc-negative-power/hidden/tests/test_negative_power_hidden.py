import unittest

from calc import evaluate, parse, to_source


class NegativeLiteralTest(unittest.TestCase):
    def test_negative_literal_squared(self):
        self.assertEqual(evaluate("-2 ** 2"), -4)

    def test_in_a_sum(self):
        self.assertEqual(evaluate("10 + -3 ** 2"), 1)

    def test_after_parenthesis(self):
        self.assertEqual(evaluate("(-2 ** 2)"), -4)

    def test_function_argument(self):
        self.assertEqual(evaluate("abs(-2 ** 3)"), 8)

    def test_literal_like_variable(self):
        self.assertEqual(evaluate("-2 ** 2"), evaluate("-x ** 2", {"x": 2}))

    def test_round_trip_keeps_meaning(self):
        self.assertEqual(evaluate(to_source(parse("-2 ** 2"))), -4)

    def test_parenthesised_negative_base(self):
        self.assertEqual(evaluate("(-2) ** 2"), 4)

    def test_negative_exponent(self):
        self.assertEqual(evaluate("2 ** -2"), 0.25)

    def test_double_minus(self):
        self.assertEqual(evaluate("2 - -3"), 5)

    def test_negative_decimal(self):
        self.assertEqual(evaluate("-.5 * 4"), -2.0)


if __name__ == "__main__":
    unittest.main()
