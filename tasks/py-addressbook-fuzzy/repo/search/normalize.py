"""Text folding so that searches ignore case, accents and punctuation."""
import re
import unicodedata


def fold(text):
    """Lower-case, accent-free, punctuation-free text with single spaces.

    ``"  José  O'Brien-Núñez "`` -> ``"jose o brien nunez"``.
    """
    decomposed = unicodedata.normalize("NFC", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    cleaned = re.sub(r"[^\w\s]", " ", stripped.casefold())
    return " ".join(cleaned.split())


def tokens(text):
    """The words of ``fold(text)``."""
    return fold(text).split()
