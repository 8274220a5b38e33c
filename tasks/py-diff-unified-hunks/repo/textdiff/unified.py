"""Unified diff output (`diff -u`)."""
from .ops import opcodes


def _range(start, stop):
    """Hunk header range for the 0-based half-open slice [start, stop), as GNU diff prints it:
    1-based first line, and the length only when it isn't 1. An empty range names the line
    before it ("0,0" at the top of the file)."""
    length = stop - start
    if length == 1:
        return f"{start}"
    first = start + 1 if length else start
    return f"{first},{length}"


def _hunks(codes, context):
    """Group the change opcodes into hunks; changes separated by at most 2*context unchanged
    lines share a hunk (their context would otherwise overlap or touch)."""
    changes = [code for code in codes if code[0] != "equal"]
    hunks = []
    for code in changes:
        if hunks and code[1] - hunks[-1][-1][2] < 2 * context:
            hunks[-1].append(code)
        else:
            hunks.append([code])
    return hunks


def unified_diff(a, b, fromfile="a", tofile="b", context=3):
    """Lines (without newlines) of a unified diff turning `a` into `b`; [] when they are equal."""
    codes = opcodes(a, b)
    lines = []
    for hunk in _hunks(codes, context):
        a1 = max(0, hunk[0][1] - context)
        b1 = max(0, hunk[0][3] - context)
        a2 = min(len(a), hunk[-1][2] + context)
        b2 = min(len(b), hunk[-1][4] + context)
        if not lines:
            lines += [f"--- {fromfile}", f"+++ {tofile}"]
        lines.append(f"@@ -{_range(a1, a2)} +{_range(b1, b2)} @@")
        i = a1
        for tag, i1, i2, j1, j2 in hunk:
            lines += [" " + line for line in a[i:i1]]
            lines += ["-" + line for line in a[i1:i2]]
            lines += ["+" + line for line in b[j1:j2]]
            i = i2
        lines += [" " + line for line in a[i:a2]]
    return lines
