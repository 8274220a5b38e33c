import unittest

from calc import ParseError, tokenize


class TokenizeTest(unittest.TestCase):
    def test_kinds(self):
        kinds = [t.kind for t in tokenize("max(x, 2.5) ** 2")]
        self.assertEqual(kinds, ["NAME", "(", "NAME", ",", "NUMBER", ")", "OP", "NUMBER", "EOF"])

    def test_positions(self):
        self.assertEqual([t.position for t in tokenize("1 +  23")], [0, 2, 5, 7])

    def test_exponent_literal(self):
        self.assertEqual(tokenize("1.5e-3")[0].value, 0.0015)

    def test_bad_character(self):
        with self.assertRaisesRegex(ParseError, "column 2"):
            tokenize("1 $ 2")


if __name__ == "__main__":
    unittest.main()
