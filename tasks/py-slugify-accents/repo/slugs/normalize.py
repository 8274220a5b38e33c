"""Reduce Unicode text to plain ASCII where that can be done sensibly."""
import unicodedata

#: Letters that do not decompose into ASCII plus combining marks.
SPECIAL = {
    "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE",
    "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "þ": "th", "Þ": "Th",
}


def transliterate(text):
    """Replace the letters in :data:`SPECIAL` by their ASCII spelling."""
    return "".join(SPECIAL.get(char, char) for char in text)


def strip_accents(text):
    """Remove diacritics: ``"Crème brûlée"`` -> ``"Creme brulee"``.

    The text is decomposed so that accented letters become a base letter followed by combining
    marks, and the marks are dropped.
    """
    decomposed = unicodedata.normalize("NFC", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char))
