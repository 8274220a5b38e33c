import unittest
from datetime import date

from dates import DateRange, add_business_days, is_business_day, parse_range


class DateRangeTest(unittest.TestCase):
    def test_contains_both_ends(self):
        r = DateRange(date(2024, 1, 1), date(2024, 1, 31))
        self.assertIn(date(2024, 1, 1), r)
        self.assertIn(date(2024, 1, 31), r)
        self.assertNotIn(date(2024, 2, 1), r)

    def test_rejects_reversed(self):
        with self.assertRaises(ValueError):
            DateRange(date(2024, 2, 1), date(2024, 1, 1))

    def test_intersection(self):
        a = DateRange(date(2024, 1, 1), date(2024, 1, 10))
        b = DateRange(date(2024, 1, 10), date(2024, 1, 20))
        self.assertEqual(a.intersection(b), DateRange(date(2024, 1, 10), date(2024, 1, 10)))

    def test_months(self):
        r = DateRange(date(2023, 12, 20), date(2024, 2, 3))
        self.assertEqual([(m.start.isoformat(), m.end.isoformat()) for m in r.months()], [
            ("2023-12-20", "2023-12-31"), ("2024-01-01", "2024-01-31"), ("2024-02-01", "2024-02-03"),
        ])


class ParseTest(unittest.TestCase):
    def test_month(self):
        self.assertEqual(parse_range("2024-02"), DateRange(date(2024, 2, 1), date(2024, 2, 29)))

    def test_explicit(self):
        self.assertEqual(parse_range("2024-01-05..2024-01-09").end, date(2024, 1, 9))


class BusinessDayTest(unittest.TestCase):
    def test_weekend(self):
        self.assertFalse(is_business_day(date(2024, 1, 6)))
        self.assertTrue(is_business_day(date(2024, 1, 8)))

    def test_add_business_days_skips_weekend_and_holiday(self):
        self.assertEqual(add_business_days(date(2024, 1, 5), 2, holidays=[date(2024, 1, 8)]), date(2024, 1, 10))


if __name__ == "__main__":
    unittest.main()
