"""Slug generation."""
import re

from .normalize import strip_accents, transliterate

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def slugify(text, separator="-", max_length=None):
    """Lower-case ASCII slug of ``text``.

    Accents are stripped and special letters transliterated; runs of other characters become a
    single ``separator``. ``max_length`` cuts at a separator boundary when possible.
    """
    ascii_text = strip_accents(transliterate(text)).lower()
    slug = _NON_ALNUM.sub(separator, ascii_text).strip(separator)
    if max_length is not None and len(slug) > max_length:
        cut = slug[:max_length]
        if separator in cut and slug[max_length] != separator:
            cut = cut.rsplit(separator, 1)[0]
        slug = cut.strip(separator)
    return slug
