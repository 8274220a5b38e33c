import unittest
from datetime import date

from dates import DateRange, business_days, parse_range


class InclusiveEndTest(unittest.TestCase):
    def test_january_has_31_days(self):
        self.assertEqual(len(parse_range("2024-01")), 31)

    def test_single_day_range(self):
        r = DateRange(date(2024, 3, 1), date(2024, 3, 1))
        self.assertEqual(len(r), 1)
        self.assertEqual(list(r), [date(2024, 3, 1)])

    def test_iteration_includes_end(self):
        days = list(parse_range("2024-02-27..2024-03-01"))
        self.assertEqual(days, [date(2024, 2, 27), date(2024, 2, 28), date(2024, 2, 29), date(2024, 3, 1)])

    def test_business_days_full_week(self):
        self.assertEqual(business_days(parse_range("2024-01-08..2024-01-12")), 5)

    def test_business_days_in_month_with_holiday(self):
        self.assertEqual(business_days(parse_range("2024-05"), holidays=[date(2024, 5, 27)]), 22)

    def test_business_days_single_friday(self):
        self.assertEqual(business_days(parse_range("2024-01-12")), 1)

    def test_business_days_weekend_only(self):
        self.assertEqual(business_days(parse_range("2024-01-06..2024-01-07")), 0)

    def test_overlap_on_shared_end_day(self):
        self.assertTrue(parse_range("2024-01").overlaps(parse_range("2024-01-31..2024-02-05")))


if __name__ == "__main__":
    unittest.main()
