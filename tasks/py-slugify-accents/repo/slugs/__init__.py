"""URL slugs from arbitrary titles."""
from .normalize import strip_accents, transliterate
from .slug import slugify
from .unique import UniqueSlugger

__all__ = ["UniqueSlugger", "slugify", "strip_accents", "transliterate"]
