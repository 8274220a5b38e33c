"""One-call conversion used by the `numerals` command-line helper and the docs site."""

from .roman import from_roman, to_roman
from .words import to_words


def describe(text):
    """Describe a number given as digits or as a Roman numeral.

    '42' -> {'value': 42, 'roman': 'XLII', 'words': 'forty-two'}. The 'roman' entry is None
    when the value has no Roman numeral (0, negatives, 4000 and up).
    """
    text = text.strip()
    value = int(text) if text.lstrip("-").isdigit() else from_roman(text)
    roman = to_roman(value) if 1 <= value <= 3999 else None
    return {"value": value, "roman": roman, "words": to_words(value)}
