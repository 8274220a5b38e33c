import unittest

from gridcalc import lexer
from gridcalc.errors import FormulaSyntaxError


def kinds(text):
    return [(t.kind, t.text) for t in lexer.tokenize(text)][:-1]


class LexerTest(unittest.TestCase):
    def test_numbers_and_operators(self):
        self.assertEqual(
            kinds("1+2.5*3e2"),
            [("number", "1"), ("op", "+"), ("number", "2.5"), ("op", "*"), ("number", "3e2")],
        )

    def test_two_character_operators(self):
        self.assertEqual([t for _, t in kinds("1<=2<>3>=4")], ["1", "<=", "2", "<>", "3", ">=", "4"])

    def test_strings_with_doubled_quotes(self):
        tokens = lexer.tokenize('"say ""hi"""')
        self.assertEqual(tokens[0].kind, lexer.STRING)
        self.assertEqual(lexer.unquote(tokens[0].text), 'say "hi"')

    def test_refs_and_functions(self):
        self.assertEqual(
            kinds("SUM($A$1:b2)"),
            [("name", "SUM"), ("(", "("), ("ref", "$A$1"), (":", ":"), ("ref", "b2"), (")", ")")],
        )

    def test_booleans_and_errors(self):
        self.assertEqual(kinds("true"), [("bool", "true")])
        self.assertEqual(kinds("#DIV/0!"), [("error", "#DIV/0!")])

    def test_positions(self):
        tokens = lexer.tokenize("A1 + 10")
        self.assertEqual([t.pos for t in tokens], [0, 3, 5, 7])

    def test_unknown_character(self):
        with self.assertRaises(FormulaSyntaxError) as caught:
            lexer.tokenize("1 + ~2")
        self.assertEqual(caught.exception.position, 4)


if __name__ == "__main__":
    unittest.main()
