"""A compact English stopword list."""

STOPWORDS = frozenset("""
a about after all also an and any are as at be because been but by can could did do does for from
had has have he her his how i if in into is it its just me my no not of on or our out she so than
that the their them then there these they this to too up us was we were what when which who will
with would you your
""".split())


def is_stopword(token):
    return token.lower() in STOPWORDS


def remove_stopwords(tokens):
    """Tokens that are not stopwords, in their original order."""
    return [t for t in tokens if not is_stopword(t)]
