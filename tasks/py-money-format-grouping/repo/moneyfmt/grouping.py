"""Digit grouping (thousands separators)."""


def group_digits(digits, separator=",", grouping=(3, 3)):
    """Insert ``separator`` between digit groups of the string ``digits``.

    ``grouping`` is ``(first, rest)``: the right-most group has ``first`` digits, every group to
    its left ``rest`` digits (the left-most group may be shorter).

    >>> group_digits("1234567")
    '1,234,567'
    >>> group_digits("1234567", grouping=(3, 2))
    '12,34,567'
    """
    if not digits.isdigit():
        raise ValueError(f"expected only digits, got {digits!r}")
    first, rest = grouping
    if len(digits) <= first:
        return digits
    head, tail = digits[:-first], digits[-first:]
    lead = len(head) % rest
    groups = [head[:lead]] + [head[i:i + rest] for i in range(lead, len(head), rest)]
    return separator.join(groups + [tail])
