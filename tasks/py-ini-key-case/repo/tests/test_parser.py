import unittest

from iniconf import NoOptionError, NoSectionError, ParseError, parse

SAMPLE = """
; service configuration
[server]
host = example.org
port = 8080   ; default port
debug: off

[paths]
search =
    /usr/share
    /opt/share
"""


class ParseTest(unittest.TestCase):
    def test_sections_in_order(self):
        self.assertEqual(parse(SAMPLE).sections(), ["server", "paths"])

    def test_inline_comment_removed(self):
        self.assertEqual(parse(SAMPLE).get("server", "port"), "8080")

    def test_continuation_lines(self):
        self.assertEqual(parse(SAMPLE).get("paths", "search"), "/usr/share\n/opt/share")

    def test_duplicate_section_rejected(self):
        with self.assertRaises(ParseError) as ctx:
            parse("[a]\nx=1\n[a]\n")
        self.assertEqual(ctx.exception.lineno, 3)

    def test_option_outside_section(self):
        with self.assertRaises(ParseError):
            parse("x = 1\n")


class TypedGetterTest(unittest.TestCase):
    def test_getint_and_getboolean(self):
        cfg = parse(SAMPLE)
        self.assertEqual(cfg.getint("server", "port"), 8080)
        self.assertIs(cfg.getboolean("server", "debug"), False)

    def test_missing_option_and_section(self):
        cfg = parse(SAMPLE)
        with self.assertRaises(NoOptionError):
            cfg.get("server", "timeout")
        with self.assertRaises(NoSectionError):
            cfg.get("client", "host")
        self.assertEqual(cfg.getint("server", "timeout", fallback=30), 30)


if __name__ == "__main__":
    unittest.main()
