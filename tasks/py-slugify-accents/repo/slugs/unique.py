"""Unique slugs within one namespace (e.g. all posts of a blog)."""
from .slug import slugify


class UniqueSlugger:
    """Hands out slugs, appending ``-2``, ``-3``... when a slug is already taken."""

    def __init__(self, taken=(), separator="-", max_length=None):
        self.taken = set(taken)
        self.separator = separator
        self.max_length = max_length

    def slug_for(self, title):
        base = slugify(title, self.separator, self.max_length) or "item"
        slug, n = base, 1
        while slug in self.taken:
            n += 1
            slug = f"{base}{self.separator}{n}"
        self.taken.add(slug)
        return slug
