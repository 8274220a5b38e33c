import unittest

from httphead import HeaderParseError, parse_content_type, parse_params


class ParamsTest(unittest.TestCase):
    def test_content_type(self):
        self.assertEqual(
            parse_content_type("Text/HTML; Charset=UTF-8"), ("text/html", {"charset": "UTF-8"})
        )

    def test_quoted_value_with_separator(self):
        self.assertEqual(parse_params('a=1; b="x;y"'), {"a": "1", "b": "x;y"})

    def test_escaped_quote(self):
        self.assertEqual(parse_params(r'title="say \"hi\""'), {"title": 'say "hi"'})

    def test_unterminated(self):
        with self.assertRaises(HeaderParseError):
            parse_params('a="oops')


if __name__ == "__main__":
    unittest.main()
