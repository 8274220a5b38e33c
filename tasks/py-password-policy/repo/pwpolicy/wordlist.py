"""A tiny built-in list of passwords seen in breaches (lower case)."""

COMMON = frozenset({
    "password", "123456", "qwerty", "letmein", "dragon", "monkey", "football", "iloveyou",
    "admin", "welcome", "sunshine", "princess", "trustno1", "baseball", "superman",
})


def contains_common_word(password, min_word=5):
    """The first common password of at least ``min_word`` characters inside ``password``."""
    lowered = password.lower()
    for word in sorted(COMMON):
        if len(word) >= min_word and word in lowered:
            return word
    return None
