import unittest

from qs import QueryDict, parse_qs, quote, quote_plus, unquote, unquote_plus, urlencode


class RoundTripTest(unittest.TestCase):
    def test_plus_sign_survives(self):
        params = {"phone": "+44 20 7946 0958", "expr": "1+1=2"}
        self.assertEqual(parse_qs(urlencode(params)), {k: [v] for k, v in params.items()})

    def test_plus_is_percent_encoded(self):
        self.assertEqual(quote_plus("C++ & C#"), "C%2B%2B+%26+C%23")

    def test_unquote_utf8(self):
        self.assertEqual(unquote("caf%C3%A9"), "café")
        self.assertEqual(unquote("%E2%82%AC%20100"), "€ 100")

    def test_non_ascii_roundtrip(self):
        params = {"city": "Zürich", "greeting": "こんにちは", "emoji": "🚀 launch"}
        self.assertEqual(parse_qs(urlencode(params)), {k: [v] for k, v in params.items()})

    def test_querydict_roundtrip(self):
        d = QueryDict([("tag", "naïve"), ("tag", "a+b"), ("q", "50% off")])
        self.assertEqual(QueryDict.from_string(d.to_string()).items(), d.items())

    def test_invalid_utf8_replaced(self):
        self.assertEqual(unquote_plus("%FF+ok"), "\ufffd ok")

    def test_ascii_roundtrip(self):
        params = {"q": "red shoes", "page": "2", "path": "/a/b:c"}
        self.assertEqual(parse_qs(urlencode(params)), {k: [v] for k, v in params.items()})

    def test_quote_utf8_bytes(self):
        self.assertEqual(quote("é"), "%C3%A9")

    def test_mixed_literal_and_escapes(self):
        self.assertEqual(unquote("50%25 of 100%"), "50% of 100%")


if __name__ == "__main__":
    unittest.main()
