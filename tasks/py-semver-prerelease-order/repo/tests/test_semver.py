import unittest

from semver import InvalidVersion, Version, compare, max_satisfying, satisfies, sort_versions


class ParseTest(unittest.TestCase):
    def test_full_version(self):
        v = Version.parse("v1.2.3-beta.1+exp.sha.5114f85")
        self.assertEqual((v.major, v.minor, v.patch), (1, 2, 3))
        self.assertEqual(v.prerelease, ("beta", "1"))
        self.assertEqual(str(v), "1.2.3-beta.1+exp.sha.5114f85")

    def test_invalid(self):
        for bad in ["1.2", "01.2.3", "1.2.3-01", "1.2.3-"]:
            with self.assertRaises(InvalidVersion):
                Version.parse(bad)


class CompareTest(unittest.TestCase):
    def test_numeric_parts(self):
        self.assertEqual(compare("1.10.0", "1.9.0"), 1)
        self.assertEqual(compare("2.0.0", "2.0.0"), 0)

    def test_prerelease_before_release(self):
        self.assertEqual(compare("1.0.0-rc.1", "1.0.0"), -1)

    def test_alphanumeric_prereleases(self):
        self.assertEqual(sort_versions(["1.0.0-beta", "1.0.0-alpha", "1.0.0-alpha.beta"]),
                         ["1.0.0-alpha", "1.0.0-alpha.beta", "1.0.0-beta"])


class RangeTest(unittest.TestCase):
    def test_caret(self):
        self.assertTrue(satisfies("1.9.2", "^1.4.0"))
        self.assertFalse(satisfies("2.0.0", "^1.4.0"))
        self.assertFalse(satisfies("0.3.0", "^0.2.1"))

    def test_max_satisfying(self):
        self.assertEqual(max_satisfying(["1.2.0", "1.3.5", "2.0.0"], ">=1.0.0 <2.0.0"), "1.3.5")


if __name__ == "__main__":
    unittest.main()
