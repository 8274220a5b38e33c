"""Splitting text into sentences and word tokens."""
import re

_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*")
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+|\n{2,}")


def tokenize(text, lowercase=True):
    """Word tokens of ``text``; punctuation is dropped and apostrophes inside words are kept.

    Curly apostrophes are normalized to ``'``: ``"Don’t stop!"`` -> ``["don't", "stop"]``.
    """
    tokens = [match.group(0).replace("’", "'") for match in _WORD_RE.finditer(text)]
    return [t.lower() for t in tokens] if lowercase else tokens


def sentences(text):
    """Split on ``.``, ``!`` or ``?`` followed by whitespace, and on blank lines.

    Empty pieces are dropped; surrounding whitespace is stripped.
    """
    return [part.strip() for part in _SENTENCE_END_RE.split(text) if part and part.strip()]
