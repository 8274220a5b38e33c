import unittest

from gridcalc.errors import DIV0, FormulaSyntaxError
from gridcalc.nodes import Binary, Call, Literal, Name, Range, Ref, Unary, referenced_keys
from gridcalc.parser import parse


class ParserTest(unittest.TestCase):
    def test_precedence(self):
        tree = parse("1+2*3")
        self.assertEqual(tree, Binary("+", Literal(1.0), Binary("*", Literal(2.0), Literal(3.0))))

    def test_left_grouping(self):
        self.assertEqual(parse("8-2-1"), Binary("-", Binary("-", Literal(8.0), Literal(2.0)), Literal(1.0)))

    def test_concat_below_arithmetic(self):
        tree = parse('"n="&1+1')
        self.assertEqual(tree.op, "&")
        self.assertEqual(tree.right.op, "+")

    def test_comparison_loosest(self):
        self.assertEqual(parse("1+1=2").op, "=")

    def test_unary_minus_binds_tighter_than_power(self):
        self.assertEqual(parse("-2^2"), Binary("^", Unary("-", Literal(2.0)), Literal(2.0)))

    def test_call_with_range(self):
        tree = parse("sum(A1:A3, 4)")
        self.assertIsInstance(tree, Call)
        self.assertEqual(tree.name, "SUM")
        self.assertIsInstance(tree.args[0], Range)
        self.assertEqual(referenced_keys(tree), {(0, 0), (0, 1), (0, 2)})

    def test_literals(self):
        self.assertEqual(parse('"x"'), Literal("x"))
        self.assertEqual(parse("FALSE"), Literal(False))
        self.assertEqual(parse("#DIV/0!"), Literal(DIV0))
        self.assertIsInstance(parse("B2"), Ref)

    def test_defined_names(self):
        self.assertEqual(parse("rates*2"), Binary("*", Name("RATES"), Literal(2.0)))

    def test_errors(self):
        for bad in ("", "1+", "(1", "SUM(1,", "1 2", "rates rates"):
            with self.subTest(bad=bad):
                with self.assertRaises(FormulaSyntaxError):
                    parse(bad)


if __name__ == "__main__":
    unittest.main()
