import unittest

from gridcalc.errors import DIV0, VALUE

from tests.support import evaluate


class LogicTest(unittest.TestCase):
    def test_if_branches(self):
        self.assertEqual(evaluate('=IF(1>0, "yes", "no")'), "yes")
        self.assertEqual(evaluate('=IF(0, "yes", "no")'), "no")
        self.assertIs(evaluate('=IF(FALSE, "yes")'), False)

    def test_if_does_not_evaluate_the_other_branch(self):
        self.assertEqual(evaluate('=IF(TRUE, 1, 1/0)'), 1.0)

    def test_if_condition_error(self):
        self.assertEqual(evaluate('=IF(1/0, 1, 2)'), DIV0)
        self.assertEqual(evaluate('=IF("maybe", 1, 2)'), VALUE)

    def test_iferror(self):
        self.assertEqual(evaluate('=IFERROR(1/0, "oops")'), "oops")
        self.assertEqual(evaluate('=IFERROR(5, "oops")'), 5.0)
        self.assertEqual(evaluate('=IFERROR(A1, 0)', {"A1": "=SQRT(-1)"}), 0.0)

    def test_and_or_not(self):
        self.assertIs(evaluate("=AND(1, TRUE, 2>1)"), True)
        self.assertIs(evaluate("=AND(1, 0)"), False)
        self.assertIs(evaluate("=OR(0, FALSE)"), False)
        self.assertIs(evaluate("=NOT(0)"), True)
        self.assertIs(evaluate("=AND(A1:A3)", {"A1": "TRUE", "A2": "text", "A3": "1"}), True)

    def test_is_functions(self):
        self.assertIs(evaluate("=ISERROR(A1)", {"A1": "=1/0"}), True)
        self.assertIs(evaluate("=ISERROR(1)"), False)
        self.assertIs(evaluate("=ISBLANK(A1)"), True)


if __name__ == "__main__":
    unittest.main()
