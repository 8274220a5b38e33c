"""Convert integers to and from Roman numerals and English words."""
from .roman import from_roman, to_roman
from .words import to_ordinal_words, to_words
from .convert import describe

__all__ = ["describe", "from_roman", "to_ordinal_words", "to_roman", "to_words"]
