"""Phone number clean-up."""
import re


def normalize_phone(raw, default_country="44"):
    """E.164-like ``+<digits>``: ``"020 7946 0018"`` -> ``"+442079460018"``.

    A leading ``00`` or ``+`` keeps the country code, a single leading ``0`` is a national
    number in ``default_country``. Empty input gives ``""``.
    """
    digits = re.sub(r"\D", "", raw)
    if not digits:
        return ""
    if raw.strip().startswith("+"):
        return "+" + digits
    if digits.startswith("00"):
        return "+" + digits[2:]
    if digits.startswith("0"):
        return "+" + default_country + digits[1:]
    return "+" + digits
