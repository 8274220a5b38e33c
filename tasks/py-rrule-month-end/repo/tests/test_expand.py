import unittest
from datetime import date

from recur import RuleError, between, expand, parse_rule


class ExpandTest(unittest.TestCase):
    def test_daily_interval(self):
        self.assertEqual(
            expand(parse_rule("FREQ=DAILY;INTERVAL=2;COUNT=3"), date(2025, 3, 30)),
            [date(2025, 3, 30), date(2025, 4, 1), date(2025, 4, 3)],
        )

    def test_weekly_byday(self):
        self.assertEqual(
            expand(parse_rule("FREQ=WEEKLY;BYDAY=MO,FR;COUNT=4"), date(2025, 6, 4)),
            [date(2025, 6, 6), date(2025, 6, 9), date(2025, 6, 13), date(2025, 6, 16)],
        )

    def test_monthly_mid_month(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;COUNT=3"), date(2025, 11, 15)),
            [date(2025, 11, 15), date(2025, 12, 15), date(2026, 1, 15)],
        )

    def test_last_day_of_month(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3"), date(2025, 1, 10)),
            [date(2025, 1, 31), date(2025, 2, 28), date(2025, 3, 31)],
        )

    def test_until_inclusive(self):
        self.assertEqual(
            expand(parse_rule("FREQ=YEARLY;UNTIL=20270704"), date(2025, 7, 4)),
            [date(2025, 7, 4), date(2026, 7, 4), date(2027, 7, 4)],
        )

    def test_unbounded_needs_limit(self):
        with self.assertRaises(RuleError):
            expand(parse_rule("FREQ=DAILY"), date(2025, 1, 1))
        self.assertEqual(len(expand(parse_rule("FREQ=DAILY"), date(2025, 1, 1), limit=5)), 5)

    def test_between(self):
        self.assertEqual(
            between(parse_rule("FREQ=WEEKLY"), date(2025, 1, 1), date(2025, 1, 10), date(2025, 1, 31)),
            [date(2025, 1, 15), date(2025, 1, 22), date(2025, 1, 29)],
        )


if __name__ == "__main__":
    unittest.main()
