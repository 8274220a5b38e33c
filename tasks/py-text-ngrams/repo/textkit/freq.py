"""Word frequencies."""
from collections import Counter

from .stopwords import remove_stopwords
from .tokenize import tokenize


def word_counts(text, drop_stopwords=False):
    """Counter of lower-cased tokens."""
    tokens = tokenize(text)
    if drop_stopwords:
        tokens = remove_stopwords(tokens)
    return Counter(tokens)


def top_words(text, k=10, drop_stopwords=False):
    """The ``k`` most frequent words as ``(word, count)``; ties broken alphabetically."""
    counts = word_counts(text, drop_stopwords)
    ranked = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    return ranked[:k]


def type_token_ratio(text):
    """Distinct words divided by total words (0.0 for text without words).

    A rough measure of vocabulary richness: repetitive text scores low.
    """
    tokens = tokenize(text)
    if not tokens:
        return 0.0
    return len(set(tokens)) / len(tokens)


def keyword_density(text, keyword):
    """Share of the tokens of ``text`` equal to ``keyword`` (case-insensitive), in percent."""
    tokens = tokenize(text)
    if not tokens:
        return 0.0
    return 100.0 * tokens.count(keyword.lower()) / len(tokens)
