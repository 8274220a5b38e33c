import unittest

from textdiff import diffstat, unified_diff

TWENTY = [f"row {n}" for n in range(1, 21)]


class HunkHeaderTest(unittest.TestCase):
    def test_single_line_old_range(self):
        self.assertEqual(unified_diff(["x"], ["x", "y"])[2], "@@ -1 +1,2 @@")

    def test_single_line_both_sides_context_zero(self):
        new = TWENTY[:9] + ["ROW 10"] + TWENTY[10:]
        self.assertEqual(unified_diff(TWENTY, new, context=0)[2], "@@ -10 +10 @@")

    def test_delete_last_line_only(self):
        self.assertEqual(unified_diff(["keep", "drop"], ["keep"], context=0)[2], "@@ -2 +1,0 @@")

    def test_multi_line_ranges_unchanged(self):
        new = TWENTY[:9] + ["ROW 10"] + TWENTY[10:]
        self.assertEqual(unified_diff(TWENTY, new)[2], "@@ -7,7 +7,7 @@")


class HunkMergeTest(unittest.TestCase):
    def test_gap_of_exactly_twice_the_context_merges(self):
        new = list(TWENTY)
        new[4] = "ROW 5"
        new[11] = "ROW 12"  # six unchanged lines between the two changes
        headers = [l for l in unified_diff(TWENTY, new) if l.startswith("@@")]
        self.assertEqual(headers, ["@@ -2,14 +2,14 @@"])

    def test_gap_of_two_with_context_one(self):
        new = ["A"] + TWENTY[1:3] + ["D"] + TWENTY[4:]
        headers = [l for l in unified_diff(TWENTY, new, context=1) if l.startswith("@@")]
        self.assertEqual(headers, ["@@ -1,5 +1,5 @@"])

    def test_gap_larger_than_twice_the_context_splits(self):
        new = list(TWENTY)
        new[4] = "ROW 5"
        new[12] = "ROW 13"  # seven unchanged lines between the two changes
        headers = [l for l in unified_diff(TWENTY, new) if l.startswith("@@")]
        self.assertEqual(headers, ["@@ -2,7 +2,7 @@", "@@ -10,7 +10,7 @@"])

    def test_merged_hunk_body(self):
        old = ["a", "b", "c", "d"]
        new = ["A", "b", "c", "D"]
        self.assertEqual(
            unified_diff(old, new, context=1),
            ["--- a", "+++ b", "@@ -1,4 +1,4 @@", "-a", "+A", " b", " c", "-d", "+D"],
        )


class DiffstatHiddenTest(unittest.TestCase):
    def test_replace_more_lines_than_it_removes(self):
        self.assertEqual(diffstat(["a", "b"], ["x", "y", "z"]), (3, 2))

    def test_replace_fewer_lines(self):
        self.assertEqual(diffstat(["a", "b", "c", "k"], ["z", "k"]), (1, 3))

    def test_equal_inputs(self):
        self.assertEqual(diffstat(["a"], ["a"]), (0, 0))


if __name__ == "__main__":
    unittest.main()
