import unittest

from textdiff import unified_diff

TEN = [f"line {n}" for n in range(1, 11)]


class UnifiedDiffTest(unittest.TestCase):
    def test_identical_inputs(self):
        self.assertEqual(unified_diff(TEN, TEN), [])

    def test_change_in_the_middle(self):
        new = TEN[:4] + ["LINE 5"] + TEN[5:]
        self.assertEqual(
            unified_diff(TEN, new, "old.txt", "new.txt"),
            [
                "--- old.txt",
                "+++ new.txt",
                "@@ -2,7 +2,7 @@",
                " line 2",
                " line 3",
                " line 4",
                "-line 5",
                "+LINE 5",
                " line 6",
                " line 7",
                " line 8",
            ],
        )

    def test_one_line_file(self):
        self.assertEqual(unified_diff(["hello"], ["world"]), ["--- a", "+++ b", "@@ -1 +1 @@", "-hello", "+world"])

    def test_append_to_empty_file(self):
        self.assertEqual(unified_diff([], ["x", "y"]), ["--- a", "+++ b", "@@ -0,0 +1,2 @@", "+x", "+y"])

    def test_far_apart_changes_get_two_hunks(self):
        new = ["first"] + TEN[1:9] + ["last"]
        headers = [line for line in unified_diff(TEN, new, context=1) if line.startswith("@@")]
        self.assertEqual(headers, ["@@ -1,2 +1,2 @@", "@@ -9,2 +9,2 @@"])

    def test_close_changes_share_a_hunk(self):
        new = ["first"] + TEN[1:7] + ["line 8!"] + TEN[8:]
        headers = [line for line in unified_diff(TEN, new, context=3) if line.startswith("@@")]
        self.assertEqual(headers, ["@@ -1,10 +1,10 @@"])

    def test_zero_context(self):
        self.assertEqual(
            unified_diff(["a", "b", "c"], ["a", "c"], context=0),
            ["--- a", "+++ b", "@@ -2 +1,0 @@", "-b"],
        )


if __name__ == "__main__":
    unittest.main()
