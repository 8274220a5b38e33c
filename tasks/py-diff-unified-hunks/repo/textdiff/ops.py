"""Edit operations between two sequences, in the style of difflib.SequenceMatcher.get_opcodes()."""
from .lcs import matching_pairs


def opcodes(a, b):
    """List of (tag, i1, i2, j1, j2): a[i1:i2] turns into b[j1:j2].

    Tags are 'equal', 'delete', 'insert' and 'replace' (a delete directly followed by an insert).
    Consecutive pairs are merged into one 'equal' run.
    """
    result = []
    i = j = 0
    for x, y in matching_pairs(a, b) + [(len(a), len(b))]:
        if i < x and j < y:
            result.append(("replace", i, x, j, y))
        elif i < x:
            result.append(("delete", i, x, j, j))
        elif j < y:
            result.append(("insert", i, i, j, y))
        if x < len(a) or y < len(b):
            if result and result[-1][0] == "equal":
                tag, i1, _, j1, _ = result.pop()
                result.append((tag, i1, x + 1, j1, y + 1))
            else:
                result.append(("equal", x, x + 1, y, y + 1))
        i, j = x + 1, y + 1
    return result


def apply_opcodes(a, b, codes):
    """Rebuild `b` from `a` and the opcodes (a self-check used by the tests and the CLI)."""
    out = []
    for tag, i1, i2, j1, j2 in codes:
        out.extend(a[i1:i2] if tag == "equal" else b[j1:j2])
    return out
