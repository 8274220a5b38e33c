"""Low-level checks on a password string."""
import string

CLASSES = {
    "lower": set(string.ascii_lowercase),
    "upper": set(string.ascii_uppercase),
    "digit": set(string.digits),
    "symbol": set(string.punctuation + " "),
}

# Rows whose runs count as sequences, in both directions.
SEQUENCES = ["abcdefghijklmnopqrstuvwxyz", "0123456789", "qwertyuiop", "asdfghjkl", "zxcvbnm"]


def character_classes(password):
    """Names of the character classes present in ``password``."""
    return {name for name, chars in CLASSES.items() if any(c in chars for c in password)}


def longest_repeat(password):
    """Length of the longest run of one repeated character (``"aaab"`` -> 3)."""
    best = run = 0
    previous = None
    for char in password:
        run = run + 1 if char == previous else 1
        previous = char
        best = max(best, run)
    return best


def _is_sequence(chunk):
    chunk = chunk.lower()
    return any(chunk in row or chunk in row[::-1] for row in SEQUENCES)


def find_sequence(password, length=4):
    """The first run of ``length`` consecutive characters from an alphabet, digit or keyboard
    row (forwards or backwards, any case) found anywhere in ``password``, or ``None``."""
    for start in range(len(password) - length):
        chunk = password[start:start + length]
        if _is_sequence(chunk):
            return chunk
    return None
