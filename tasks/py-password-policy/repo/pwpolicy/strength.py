"""A rough strength estimate in bits (pool size ** length), with penalties for patterns."""
import math

from .checks import CLASSES, character_classes, find_sequence, longest_repeat
from .wordlist import contains_common_word

LABELS = [(28, "very weak"), (36, "weak"), (60, "fair"), (128, "strong")]


def estimate_bits(password):
    """Estimated entropy of ``password`` in bits, rounded to one decimal."""
    if not password:
        return 0.0
    pool = sum(len(CLASSES[name]) for name in character_classes(password)) or 1
    bits = len(password) * math.log2(pool)
    if find_sequence(password):
        bits -= 10
    if longest_repeat(password) > 2:
        bits -= 5
    if contains_common_word(password):
        bits /= 2
    return round(max(bits, 0.0), 1)


def strength_label(password):
    """``"very weak"``, ``"weak"``, ``"fair"``, ``"strong"`` or ``"very strong"``."""
    bits = estimate_bits(password)
    for limit, label in LABELS:
        if bits < limit:
            return label
    return "very strong"
