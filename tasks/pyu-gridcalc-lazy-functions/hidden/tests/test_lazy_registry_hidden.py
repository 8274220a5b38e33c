import unittest

from gridcalc import functions
from gridcalc.errors import CellError, ErrorSignal

from tests.support import code, evaluate


def value_of(thunk):
    """What a lazy argument evaluates to, errors as values."""
    try:
        return thunk()
    except ErrorSignal as signal:
        return signal.error


class RegistryTest(unittest.TestCase):
    def restore_later(self, name):
        original = functions.lookup(name)
        if original is None:
            self.addCleanup(functions.unregister, name)
        else:
            self.addCleanup(
                functions.register, original.name, original.fn,
                min_args=original.min_args, max_args=original.max_args, lazy=original.lazy,
            )

    def test_if_and_iferror_are_lazy_registry_entries(self):
        self.assertIs(functions.lookup("if").lazy, True)
        self.assertIs(functions.lookup("IFERROR").lazy, True)
        self.assertIs(functions.lookup("SUM").lazy, False)
        self.assertEqual(functions.lookup("IF").min_args, 2)
        self.assertEqual(functions.lookup("IF").max_args, 3)

    def test_custom_lazy_function(self):
        self.restore_later("FIRSTOK")

        def first_ok(*thunks):
            for thunk in thunks:
                value = value_of(thunk)
                if not isinstance(value, CellError):
                    return value
            return thunks[-1]()

        functions.register("firstok", first_ok, min_args=1, lazy=True)
        self.assertEqual(evaluate("=FIRSTOK(1/0, A1, 3)", {"A1": "=SQRT(-1)"}), 3.0)
        self.assertEqual(evaluate('=FIRSTOK(1/0, "x"&"y")'), "xy")

    def test_unused_arguments_are_never_evaluated(self):
        self.restore_later("FIRSTARG")
        calls = []

        def first_arg(first, *rest):
            calls.append(len(rest))
            return first()

        functions.register("FIRSTARG", first_arg, min_args=1, lazy=True)
        self.assertEqual(evaluate("=FIRSTARG(2*3, NOPE(1), 1/0)"), 6.0)
        self.assertEqual(calls, [2])

    def test_thunks_read_cells(self):
        self.restore_later("TWICE")

        @functions.function("twice", min_args=1, max_args=1, lazy=True)
        def twice(thunk):
            return thunk() * 2

        self.assertEqual(evaluate("=TWICE(A1+1)", {"A1": "4"}), 10.0)
        self.assertEqual(code(evaluate("=TWICE(1, 2)")), "#VALUE!")

    def test_replacing_if_takes_effect(self):
        self.restore_later("IF")
        functions.register("IF", lambda *thunks: "replaced", min_args=0, lazy=True)
        self.assertEqual(evaluate("=IF(1, 2, 3)"), "replaced")

    def test_replacing_iferror_takes_effect(self):
        self.restore_later("IFERROR")
        functions.register("IFERROR", lambda value, fallback: value_of(fallback), min_args=2, max_args=2, lazy=True)
        self.assertEqual(evaluate('=IFERROR(5, "always")'), "always")

    def test_eager_functions_unchanged(self):
        self.restore_later("DOUBLE")
        functions.register("DOUBLE", lambda x: x * 2, min_args=1, max_args=1)
        self.assertEqual(evaluate("=DOUBLE(21)"), 42.0)
        self.assertIs(functions.lookup("DOUBLE").lazy, False)


class BuiltinBehaviourTest(unittest.TestCase):
    def test_if(self):
        self.assertEqual(evaluate('=IF(2>1, "a", 1/0)'), "a")
        self.assertIs(evaluate("=IF(0, 1)"), False)
        self.assertEqual(code(evaluate("=IF(1)")), "#VALUE!")
        self.assertEqual(code(evaluate("=IF(1, 2, 3, 4)")), "#VALUE!")

    def test_iferror(self):
        self.assertEqual(evaluate('=IFERROR(A1, "none")', {"A1": "=1/0"}), "none")
        self.assertEqual(evaluate("=IFERROR(7, NOPE())"), 7.0)
        self.assertEqual(code(evaluate("=IFERROR(1)")), "#VALUE!")

    def test_nested(self):
        self.assertEqual(evaluate('=IF(IFERROR(1/0, TRUE), IF(FALSE, 1, "inner"), 2)'), "inner")


if __name__ == "__main__":
    unittest.main()
