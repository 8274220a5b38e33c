"""Similarity scores between a query and a text, based on difflib."""
from difflib import SequenceMatcher

from .normalize import fold, tokens


def token_score(query_token, token):
    """Similarity of two single words in ``[0, 1]``; a prefix of the word scores 1."""
    if token.startswith(query_token):
        return 1.0
    return SequenceMatcher(None, query_token, token).quick_ratio()


def text_score(query, text):
    """How well ``query`` matches ``text``: every query word is matched to its best word of
    the text and the scores are averaged, so word order does not matter."""
    query_tokens = tokens(query)
    text_tokens = tokens(text)
    if not query_tokens or not text_tokens:
        return 0.0
    best = [max(token_score(q, t) for t in text_tokens) for q in query_tokens]
    return sum(best) / len(best)


def phrase_score(query, text):
    """Whole-string similarity, for queries that were typed as one word (``"obrien"``)."""
    return SequenceMatcher(None, fold(query).replace(" ", ""), fold(text).replace(" ", "")).ratio()
