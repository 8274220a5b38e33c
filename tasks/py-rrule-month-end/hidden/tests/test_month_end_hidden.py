import unittest
from datetime import date

from recur import expand, parse_rule


class MonthEndTest(unittest.TestCase):
    def test_monthly_on_the_31st_skips_short_months(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;COUNT=4"), date(2025, 1, 31)),
            [date(2025, 1, 31), date(2025, 3, 31), date(2025, 5, 31), date(2025, 7, 31)],
        )

    def test_monthly_on_the_30th_skips_february(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;UNTIL=20250430"), date(2025, 1, 30)),
            [date(2025, 1, 30), date(2025, 3, 30), date(2025, 4, 30)],
        )

    def test_leap_day_yearly(self):
        self.assertEqual(
            expand(parse_rule("FREQ=YEARLY;COUNT=3"), date(2024, 2, 29)),
            [date(2024, 2, 29), date(2028, 2, 29), date(2032, 2, 29)],
        )

    def test_no_drift_after_short_month(self):
        self.assertEqual(expand(parse_rule("FREQ=MONTHLY;COUNT=3"), date(2025, 1, 29))[-1], date(2025, 4, 29))

    def test_last_day_rule_still_clamps(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=2"), date(2025, 4, 1)),
            [date(2025, 4, 30), date(2025, 5, 31)],
        )

    def test_ordinary_monthly_unchanged(self):
        self.assertEqual(
            expand(parse_rule("FREQ=MONTHLY;INTERVAL=2;COUNT=3"), date(2025, 10, 5)),
            [date(2025, 10, 5), date(2025, 12, 5), date(2026, 2, 5)],
        )


if __name__ == "__main__":
    unittest.main()
