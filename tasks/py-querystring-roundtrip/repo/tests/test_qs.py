import unittest

from qs import QueryDict, parse_qs, parse_qsl, quote, unquote, urlencode


class PercentTest(unittest.TestCase):
    def test_quote_reserved(self):
        self.assertEqual(quote("a b&c=d"), "a%20b%26c%3Dd")

    def test_unquote_ascii(self):
        self.assertEqual(unquote("a%20b%2Fc"), "a b/c")

    def test_malformed_escape_kept(self):
        self.assertEqual(unquote("100%"), "100%")
        self.assertEqual(unquote("%zz"), "%zz")


class EncodeDecodeTest(unittest.TestCase):
    def test_urlencode(self):
        self.assertEqual(urlencode({"q": "red shoes", "size": [40, 41], "sale": True}),
                         "q=red+shoes&size=40&size=41&sale=true")

    def test_parse_qs(self):
        self.assertEqual(parse_qs("?q=red+shoes&size=40;size=41&empty="),
                         {"q": ["red shoes"], "size": ["40", "41"]})

    def test_blank_values(self):
        self.assertEqual(parse_qsl("a=&b", keep_blank_values=True), [("a", ""), ("b", "")])


class QueryDictTest(unittest.TestCase):
    def test_set_keeps_position(self):
        d = QueryDict.from_string("a=1&b=2&a=3")
        d.set("a", "9")
        self.assertEqual(d.items(), [("a", "9"), ("b", "2")])
        self.assertEqual(d.to_string(), "a=9&b=2")


if __name__ == "__main__":
    unittest.main()
