"""Summary counts, as in `git diff --stat`."""
from .ops import opcodes


def diffstat(a, b):
    """(insertions, deletions): lines only in `b`, lines only in `a`."""
    insertions = deletions = 0
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        if tag == "insert":
            insertions += j2 - j1
        elif tag == "delete":
            deletions += i2 - i1
        elif tag == "replace":
            insertions += j2 - j1
            deletions += j2 - j1
    return insertions, deletions
