import unittest

from pwpolicy import estimate_bits, violations
from pwpolicy.checks import find_sequence


class SequenceAtEndTest(unittest.TestCase):
    def test_sequence_at_end(self):
        self.assertEqual(find_sequence("Tr0ub4dor&wxyz"), "wxyz")

    def test_whole_password_is_a_sequence(self):
        self.assertEqual(find_sequence("6789"), "6789")

    def test_keyboard_row_at_end(self):
        self.assertEqual(find_sequence("Xx!!zxcv"), "zxcv")

    def test_short_password_exact_length(self):
        self.assertEqual(find_sequence("cba", 3), "cba")

    def test_policy_rejects_trailing_sequence(self):
        self.assertEqual(violations("Tr0ub4dor&wxyz"), ["contains the sequence 'wxyz'"])

    def test_strength_penalty_for_trailing_sequence(self):
        self.assertEqual(estimate_bits("Tr0ub4dor&wxyz"), 82.0)

    def test_too_short_for_a_sequence(self):
        self.assertIsNone(find_sequence("abc"))

    def test_sequence_in_middle(self):
        self.assertEqual(find_sequence("x!LMNOp9"), "LMNO")


if __name__ == "__main__":
    unittest.main()
