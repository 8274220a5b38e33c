import unittest

from semver import compare, max_satisfying, sort_versions


class PrereleaseOrderTest(unittest.TestCase):
    def test_numeric_identifiers_compare_numerically(self):
        self.assertEqual(compare("1.0.0-alpha.2", "1.0.0-alpha.10"), -1)
        self.assertEqual(compare("1.0.0-rc.11", "1.0.0-rc.9"), 1)

    def test_sort_release_candidates(self):
        self.assertEqual(
            sort_versions(["2.0.0-rc.10", "2.0.0", "2.0.0-rc.2", "2.0.0-rc.1"]),
            ["2.0.0-rc.1", "2.0.0-rc.2", "2.0.0-rc.10", "2.0.0"],
        )

    def test_max_satisfying_prefers_later_candidate(self):
        self.assertEqual(max_satisfying(["3.1.0-beta.9", "3.1.0-beta.12"], ">=3.1.0-beta.1"), "3.1.0-beta.12")

    def test_spec_example_order(self):
        chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
                 "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0"]
        self.assertEqual(sort_versions(list(reversed(chain))), chain)

    def test_numeric_sorts_before_alphanumeric(self):
        self.assertEqual(compare("1.0.0-1", "1.0.0-alpha"), -1)

    def test_build_metadata_ignored(self):
        self.assertEqual(compare("1.0.0-rc.1+build.1", "1.0.0-rc.1+build.2"), 0)


if __name__ == "__main__":
    unittest.main()
