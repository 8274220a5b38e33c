import unittest
from datetime import date

from recur import Rule, RuleError, parse_rule


class ParseRuleTest(unittest.TestCase):
    def test_weekly(self):
        self.assertEqual(
            parse_rule("RRULE:FREQ=WEEKLY;BYDAY=WE,MO;COUNT=4"),
            Rule("WEEKLY", count=4, byday=(0, 2)),
        )

    def test_until(self):
        self.assertEqual(parse_rule("FREQ=DAILY;UNTIL=20250105").until, date(2025, 1, 5))

    def test_count_and_until_conflict(self):
        with self.assertRaises(RuleError):
            parse_rule("FREQ=DAILY;COUNT=2;UNTIL=20250105")

    def test_unsupported_part(self):
        with self.assertRaisesRegex(RuleError, "BYSETPOS"):
            parse_rule("FREQ=MONTHLY;BYSETPOS=1")

    def test_bad_interval(self):
        with self.assertRaises(RuleError):
            parse_rule("FREQ=DAILY;INTERVAL=0")

    def test_bymonthday_negative(self):
        self.assertEqual(parse_rule("FREQ=MONTHLY;BYMONTHDAY=1,-1").bymonthday, (1, -1))


if __name__ == "__main__":
    unittest.main()
