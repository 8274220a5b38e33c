import unittest
from datetime import date, datetime

from cron import CronSchedule, parse_field
from cron.schedule import cron_weekday


class CronHiddenTest(unittest.TestCase):
    def test_weekday_numbering(self):
        self.assertEqual([cron_weekday(date(2024, 5, d)) for d in range(5, 12)], [0, 1, 2, 3, 4, 5, 6])

    def test_sunday_as_seven(self):
        self.assertEqual(CronSchedule("15 10 * * 7").next_run(datetime(2024, 5, 5, 10, 15)),
                         datetime(2024, 5, 12, 10, 15))

    def test_weekend_range(self):
        self.assertEqual(CronSchedule("0 6 * * sat,sun").upcoming(datetime(2024, 5, 3), 3),
                         [datetime(2024, 5, 4, 6), datetime(2024, 5, 5, 6), datetime(2024, 5, 11, 6)])

    def test_dom_or_dow(self):
        # the 13th of the month, or any Sunday
        self.assertEqual(CronSchedule("0 0 13 * sun").upcoming(datetime(2024, 9, 10), 3),
                         [datetime(2024, 9, 13), datetime(2024, 9, 15), datetime(2024, 9, 22)])

    def test_minute_range_step(self):
        self.assertEqual(parse_field("10-50/20", 0, 59), (10, 30, 50))
        self.assertEqual(CronSchedule("7-59/25 * * * *").upcoming(datetime(2024, 1, 1, 0, 0), 3),
                         [datetime(2024, 1, 1, 0, 7), datetime(2024, 1, 1, 0, 32), datetime(2024, 1, 1, 0, 57)])

    def test_day_of_month_step(self):
        self.assertEqual(parse_field("2-31/7", 1, 31), (2, 9, 16, 23, 30))

    def test_month_end_rollover(self):
        self.assertEqual(CronSchedule("@monthly").next_run(datetime(2024, 12, 31, 23, 59)), datetime(2025, 1, 1))

    def test_matches(self):
        schedule = CronSchedule("*/5 8-18 * * mon-fri")
        self.assertTrue(schedule.matches(datetime(2024, 5, 6, 8, 35)))
        self.assertFalse(schedule.matches(datetime(2024, 5, 4, 8, 35)))


if __name__ == "__main__":
    unittest.main()
