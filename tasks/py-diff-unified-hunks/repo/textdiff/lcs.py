"""Longest common subsequence of two sequences of lines (classic O(n*m) dynamic programme).

Common leading and trailing lines are matched up front, so typical edits to long files only pay
for the changed middle.
"""


def matching_pairs(a, b):
    """Index pairs (i, j) with a[i] == b[j] forming a longest common subsequence, in order.

    Among several longest subsequences the one that matches earlier lines of `a` first is chosen,
    so that deletions are reported before insertions.
    """
    prefix = 0
    while prefix < len(a) and prefix < len(b) and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < len(a) - prefix
        and suffix < len(b) - prefix
        and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]
    ):
        suffix += 1
    mid_a = a[prefix:len(a) - suffix]
    mid_b = b[prefix:len(b) - suffix]

    # table[i][j] = LCS length of mid_a[i:] and mid_b[j:]
    n, m = len(mid_a), len(mid_b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            if mid_a[i] == mid_b[j]:
                row[j] = below[j + 1] + 1
            else:
                row[j] = max(below[j], row[j + 1])

    pairs = [(k, k) for k in range(prefix)]
    i = j = 0
    while i < n and j < m:
        if mid_a[i] == mid_b[j]:
            pairs.append((prefix + i, prefix + j))
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    pairs.extend((len(a) - suffix + k, len(b) - suffix + k) for k in range(suffix))
    return pairs


def longest_common_subsequence(a, b):
    """The elements of a longest common subsequence of `a` and `b`."""
    return [a[i] for i, _ in matching_pairs(a, b)]
