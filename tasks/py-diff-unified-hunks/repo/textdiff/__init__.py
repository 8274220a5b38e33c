"""Line-based text diffs built on a longest-common-subsequence match.

`unified_diff` produces the same output shape as `diff -u` / `git diff` hunks.
"""
from .lcs import longest_common_subsequence, matching_pairs
from .ops import apply_opcodes, opcodes
from .stats import diffstat
from .unified import unified_diff

__all__ = [
    "apply_opcodes",
    "diffstat",
    "longest_common_subsequence",
    "matching_pairs",
    "opcodes",
    "unified_diff",
]
