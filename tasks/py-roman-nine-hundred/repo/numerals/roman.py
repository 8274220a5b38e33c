"""Roman numerals in canonical (subtractive) form, 1 to 3999."""

# Largest value first; subtractive pairs sit between the plain symbols they fall between.
_TABLE = [
    (1000, "M"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
]
_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
MIN_VALUE, MAX_VALUE = 1, 3999


def to_roman(number):
    """1994 -> 'MCMXCIV'. Raises ValueError outside 1..3999 and TypeError for non-integers."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"expected an int, got {type(number).__name__}")
    if not MIN_VALUE <= number <= MAX_VALUE:
        raise ValueError(f"{number} is out of range {MIN_VALUE}..{MAX_VALUE}")
    parts = []
    for value, symbol in _TABLE:
        count, number = divmod(number, value)
        parts.append(symbol * count)
    return "".join(parts)


def from_roman(text):
    """'mcmxciv' -> 1994. Case-insensitive; only canonical numerals are accepted
    ('IIII' and 'IC' raise ValueError)."""
    numeral = text.strip().upper()
    if not numeral or any(ch not in _VALUES for ch in numeral):
        raise ValueError(f"not a Roman numeral: {text!r}")
    total = 0
    for index, ch in enumerate(numeral):
        value = _VALUES[ch]
        following = _VALUES[numeral[index + 1]] if index + 1 < len(numeral) else 0
        total += -value if value < following else value
    if not MIN_VALUE <= total <= MAX_VALUE or to_roman(total) != numeral:
        raise ValueError(f"not a canonical Roman numeral: {text!r}")
    return total
