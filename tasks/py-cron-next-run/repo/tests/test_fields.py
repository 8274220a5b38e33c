import unittest

from cron import CronError, parse_field
from cron.names import MONTH_NAMES, WEEKDAY_NAMES


class ParseFieldTest(unittest.TestCase):
    def test_star_and_step(self):
        self.assertEqual(parse_field("*/15", 0, 59), (0, 15, 30, 45))

    def test_list_and_range(self):
        self.assertEqual(parse_field("1,5-7,30", 0, 59), (1, 5, 6, 7, 30))

    def test_range_with_step(self):
        self.assertEqual(parse_field("5-20/5", 0, 59), (5, 10, 15, 20))

    def test_start_with_step(self):
        self.assertEqual(parse_field("3/20", 0, 59), (3, 23, 43))

    def test_names(self):
        self.assertEqual(parse_field("jan,MAR-may", 1, 12, MONTH_NAMES), (1, 3, 4, 5))
        self.assertEqual(parse_field("mon-fri", 0, 7, WEEKDAY_NAMES), (1, 2, 3, 4, 5))

    def test_errors(self):
        for bad in ["60", "5-1", "*/0", "a", "1,,2"]:
            with self.assertRaises(CronError, msg=bad):
                parse_field(bad, 0, 59)


if __name__ == "__main__":
    unittest.main()
