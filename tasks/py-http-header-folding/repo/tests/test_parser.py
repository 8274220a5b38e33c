import unittest

from httphead import HeaderParseError, Headers, parse_headers, split_head


class ParseHeadersTest(unittest.TestCase):
    def test_simple_fields(self):
        headers = parse_headers("Host: example.com\r\nAccept: */*\r\n")
        self.assertEqual(headers.get("host"), "example.com")
        self.assertEqual(headers.get("ACCEPT"), "*/*")
        self.assertEqual(len(headers), 2)

    def test_value_whitespace_trimmed(self):
        headers = parse_headers("X-Trace:    abc  \n")
        self.assertEqual(headers.get("x-trace"), "abc")

    def test_repeated_fields_combined(self):
        headers = parse_headers("Accept: text/html\nAccept: application/json\n")
        self.assertEqual(headers.get("accept"), "text/html, application/json")

    def test_set_cookie_never_combined(self):
        headers = parse_headers("Set-Cookie: a=1; Expires=Wed, 21 Oct 2015\nSet-Cookie: b=2\n")
        self.assertEqual(headers.get("set-cookie"), "a=1; Expires=Wed, 21 Oct 2015")
        self.assertEqual(headers.get_all("Set-Cookie"), ["a=1; Expires=Wed, 21 Oct 2015", "b=2"])

    def test_missing_colon(self):
        with self.assertRaises(HeaderParseError) as ctx:
            parse_headers("Host: a\nbroken line\n")
        self.assertEqual(ctx.exception.line, 2)

    def test_invalid_name(self):
        with self.assertRaises(HeaderParseError):
            parse_headers("Bad Name: x\n")

    def test_continuation_first(self):
        with self.assertRaises(HeaderParseError):
            parse_headers("  orphan\nHost: a\n")

    def test_bytes_input_stops_at_body(self):
        headers = parse_headers(b"Host: a\r\nContent-Length: 2\r\n\r\nX-Not: header")
        self.assertEqual(headers.names(), ["host", "content-length"])
        self.assertEqual(headers.content_length(), 2)


class SplitHeadTest(unittest.TestCase):
    def test_split(self):
        self.assertEqual(split_head(b"A: 1\r\n\r\nbody"), ("A: 1", b"body"))

    def test_lenient_lf(self):
        self.assertEqual(split_head(b"A: 1\n\nbody"), ("A: 1", b"body"))


class HeadersTest(unittest.TestCase):
    def test_contains_ignores_case(self):
        self.assertIn("content-type", Headers([("Content-Type", "text/plain")]))

    def test_conflicting_content_length(self):
        with self.assertRaises(ValueError):
            Headers([("Content-Length", "1"), ("Content-Length", "2")]).content_length()


if __name__ == "__main__":
    unittest.main()
