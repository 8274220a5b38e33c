import unittest

from wire import Ack, DecodeError, Hello, LogLine, Telemetry, decode, encode


class RoundTripTest(unittest.TestCase):
    def test_hello(self):
        self.assertEqual(decode(encode(Hello("pump-3", 0x0204), 7)), (7, Hello("pump-3", 0x0204)))

    def test_telemetry(self):
        message = Telemetry(12, (1.5, -2.25, 100.0))
        self.assertEqual(decode(encode(message, 1)), (1, message))

    def test_ack(self):
        self.assertEqual(decode(encode(Ack(99), 100)), (100, Ack(99)))

    def test_log_line(self):
        message = LogLine(3, "valve", "opened at 40%")
        self.assertEqual(decode(encode(message, 5))[1], message)


class LayoutTest(unittest.TestCase):
    def test_ack_bytes(self):
        frame = encode(Ack(1), 2)
        self.assertEqual(frame[:14].hex(), "c0de0203000400000002" + "00000001")

    def test_hello_bytes(self):
        frame = encode(Hello("ab", 1), 0)
        self.assertEqual(frame[10:16].hex(), "000261620001")


class ErrorTest(unittest.TestCase):
    def test_corrupted_crc(self):
        frame = bytearray(encode(Ack(1), 2))
        frame[-1] ^= 0xFF
        with self.assertRaises(DecodeError):
            decode(bytes(frame))

    def test_truncated(self):
        with self.assertRaises(DecodeError):
            decode(encode(Ack(1), 2)[:-3])

    def test_unknown_type(self):
        import struct, zlib
        body = struct.pack("!HBBHI", 0xC0DE, 2, 9, 0, 1)
        with self.assertRaises(DecodeError):
            decode(body + struct.pack("!I", zlib.crc32(body)))


if __name__ == "__main__":
    unittest.main()
