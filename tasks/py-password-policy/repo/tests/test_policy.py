import unittest

from pwpolicy import Policy, estimate_bits, strength_label, violations
from pwpolicy.checks import character_classes, find_sequence, longest_repeat


class ChecksTest(unittest.TestCase):
    def test_classes(self):
        self.assertEqual(character_classes("aB3!"), {"lower", "upper", "digit", "symbol"})

    def test_longest_repeat(self):
        self.assertEqual(longest_repeat("abbbbc"), 4)

    def test_sequence_at_start(self):
        self.assertEqual(find_sequence("abcdXy9!"), "abcd")

    def test_reverse_and_keyboard_sequences(self):
        self.assertEqual(find_sequence("X-4321-Y"), "4321")
        self.assertEqual(find_sequence("!!QWER!!"), "QWER")

    def test_no_sequence(self):
        self.assertIsNone(find_sequence("Tr0ub4dor&3"))


class PolicyTest(unittest.TestCase):
    def test_good_password(self):
        self.assertEqual(violations("Tr0ub4dor&3x"), [])

    def test_every_problem(self):
        problems = violations("aaaaPassword1", Policy(min_length=14), username="pass")
        self.assertEqual(len(problems), 4)

    def test_user_name(self):
        self.assertIn("contains the user name", violations("Zed-Harbour-77", username="harbour"))


class StrengthTest(unittest.TestCase):
    def test_labels(self):
        self.assertEqual(strength_label(""), "very weak")
        self.assertEqual(strength_label("password1"), "very weak")
        self.assertEqual(strength_label("Tr0ub4dor&3x"), "strong")

    def test_bits(self):
        self.assertEqual(estimate_bits("abcdefgh"), 27.6)


if __name__ == "__main__":
    unittest.main()
