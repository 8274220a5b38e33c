import unittest

from wire import Hello, LogLine, decode, encode
from wire.fields import read_string, write_string


class Utf8StringTest(unittest.TestCase):
    def test_prefix_counts_bytes(self):
        self.assertEqual(write_string("Küche").hex(), "00064bc3bc636865")

    def test_read_back_non_ascii(self):
        self.assertEqual(read_string(write_string("Küche"), 0), ("Küche", 8))

    def test_hello_round_trip_non_ascii(self):
        self.assertEqual(decode(encode(Hello("Küche", 3), 1)), (1, Hello("Küche", 3)))

    def test_log_line_with_emoji(self):
        message = LogLine(2, "Gewächshaus", "Temperatur 🌡 zu hoch")
        self.assertEqual(decode(encode(message, 9))[1], message)

    def test_hello_payload_bytes(self):
        self.assertEqual(encode(Hello("é", 1), 0)[10:16].hex(), "0002c3a90001")

    def test_ascii_unchanged(self):
        self.assertEqual(write_string("pump").hex(), "000470756d70")

    def test_empty_string(self):
        self.assertEqual(read_string(write_string(""), 0), ("", 2))


if __name__ == "__main__":
    unittest.main()
