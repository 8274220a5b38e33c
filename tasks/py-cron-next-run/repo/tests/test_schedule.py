import unittest
from datetime import datetime

from cron import CronError, CronSchedule


class NextRunTest(unittest.TestCase):
    def test_every_quarter_hour(self):
        self.assertEqual(CronSchedule("*/15 * * * *").next_run(datetime(2024, 5, 1, 10, 7, 30)),
                         datetime(2024, 5, 1, 10, 15))

    def test_strictly_after(self):
        self.assertEqual(CronSchedule("0 12 * * *").next_run(datetime(2024, 5, 1, 12, 0)),
                         datetime(2024, 5, 2, 12, 0))

    def test_weekdays_skip_weekend(self):
        # 2024-05-03 is a Friday
        self.assertEqual(CronSchedule("30 8 * * mon-fri").next_run(datetime(2024, 5, 3, 9, 0)),
                         datetime(2024, 5, 6, 8, 30))

    def test_every_other_office_hour(self):
        self.assertEqual(CronSchedule("0 9-17/2 * * *").upcoming(datetime(2024, 5, 1, 9, 30), 3),
                         [datetime(2024, 5, 1, 11, 0), datetime(2024, 5, 1, 13, 0), datetime(2024, 5, 1, 15, 0)])

    def test_weekly_runs_on_sunday(self):
        self.assertEqual(CronSchedule("@weekly").next_run(datetime(2024, 5, 1)), datetime(2024, 5, 5, 0, 0))

    def test_leap_day(self):
        self.assertEqual(CronSchedule("0 0 29 feb *").next_run(datetime(2024, 3, 1)), datetime(2028, 2, 29))

    def test_never_fires(self):
        with self.assertRaises(CronError):
            CronSchedule("0 0 30 2 *").next_run(datetime(2024, 1, 1))

    def test_wrong_field_count(self):
        with self.assertRaises(CronError):
            CronSchedule("* * * *")


if __name__ == "__main__":
    unittest.main()
