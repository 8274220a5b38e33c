import unittest

from calc import EvalError, ParseError, evaluate, parse, to_source


class EvaluateTest(unittest.TestCase):
    def test_precedence(self):
        self.assertEqual(evaluate("1 + 2 * 3"), 7)
        self.assertEqual(evaluate("(1 + 2) * 3"), 9)

    def test_power_right_associative(self):
        self.assertEqual(evaluate("2 ** 3 ** 2"), 512)

    def test_subtraction_is_left_associative(self):
        self.assertEqual(evaluate("10 - 4 - 3"), 3)

    def test_unary_minus_on_variable(self):
        self.assertEqual(evaluate("-x ** 2", {"x": 3}), -9)

    def test_functions_and_constants(self):
        self.assertEqual(evaluate("max(1, abs(-7), 3)"), 7)
        self.assertAlmostEqual(evaluate("2 * pi"), 6.283185307179586)

    def test_errors(self):
        with self.assertRaises(EvalError):
            evaluate("1 / 0")
        with self.assertRaises(EvalError):
            evaluate("y + 1")
        with self.assertRaises(ParseError):
            evaluate("(1 + 2")


class PrinterTest(unittest.TestCase):
    def test_minimal_parentheses(self):
        self.assertEqual(to_source(parse("(a * b) + (c * (d - e))")), "a * b + c * (d - e)")

    def test_power_of_negated_variable(self):
        self.assertEqual(to_source(parse("(-a) ** 2")), "(-a) ** 2")


if __name__ == "__main__":
    unittest.main()
