"""The search index: ranks contacts by fuzzy similarity to a query."""
from dataclasses import dataclass

from .fuzzy import phrase_score, text_score

FIELDS = ("name", "email", "city")


@dataclass(frozen=True)
class Match:
    contact: object
    score: float
    field: str


class SearchIndex:
    """Fuzzy search over the contacts of an address book.

    Each contact scores its best field; results at or above ``cutoff`` come back best first,
    ties in name order.
    """

    def __init__(self, book, cutoff=0.75):
        self.book = book
        self.cutoff = cutoff

    def _score(self, query, contact):
        best = (0.0, None)
        for name in FIELDS:
            value = getattr(contact, name)
            if not value:
                continue
            text = value.replace("@", " ").replace(".", " ") if name == "email" else value
            score = max(text_score(query, text), phrase_score(query, text))
            if score > best[0]:
                best = (score, name)
        return best

    def search(self, query, limit=10):
        """The best ``limit`` matches for ``query``."""
        matches = []
        for contact in self.book:
            score, field = self._score(query, contact)
            if score >= self.cutoff:
                matches.append(Match(contact, round(score, 3), field))
        matches.sort(key=lambda m: (m.score, m.contact.name))
        return matches[:limit]

    def names(self, query, limit=10):
        """Just the contact names of :meth:`search`."""
        return [m.contact.name for m in self.search(query, limit)]
