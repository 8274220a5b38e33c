import unittest

from iniconf import NoSectionError, parse

TEXT = """
[Database]
Host = db.internal
MaxConnections = 25
UseSSL = yes
"""


class OptionCaseTest(unittest.TestCase):
    def test_get_with_original_case(self):
        self.assertEqual(parse(TEXT).get("Database", "Host"), "db.internal")

    def test_getint_with_mixed_case(self):
        self.assertEqual(parse(TEXT).getint("Database", "maxConnections"), 25)

    def test_getboolean_upper_case(self):
        self.assertIs(parse(TEXT).getboolean("Database", "USESSL"), True)

    def test_defaults_lookup_case_insensitive(self):
        cfg = parse(TEXT, defaults={"Timeout": "5"})
        self.assertEqual(cfg.getint("Database", "TIMEOUT"), 5)

    def test_lowercase_lookup_still_works(self):
        self.assertEqual(parse(TEXT).get("Database", "host"), "db.internal")

    def test_has_option_any_case(self):
        self.assertTrue(parse(TEXT).has_option("Database", "HOST"))

    def test_section_names_stay_case_sensitive(self):
        with self.assertRaises(NoSectionError):
            parse(TEXT).get("database", "host")


if __name__ == "__main__":
    unittest.main()
