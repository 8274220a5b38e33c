"""English (British style: 'one hundred and five') number words, 0 to 999,999,999,999."""

_ONES = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_SCALES = [(10**9, "billion"), (10**6, "million"), (1000, "thousand")]
_ORDINAL_EXCEPTIONS = {
    "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
    "nine": "ninth", "twelve": "twelfth",
}


def _below_hundred(n):
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("-" + _ONES[ones] if ones else "")


def _below_thousand(n):
    hundreds, rest = divmod(n, 100)
    if not hundreds:
        return _below_hundred(rest)
    head = _ONES[hundreds] + " hundred"
    return head + (" and " + _below_hundred(rest) if rest else "")


def to_words(number):
    """12345 -> 'twelve thousand three hundred and forty-five'; negatives get 'minus'."""
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"expected an int, got {type(number).__name__}")
    if number < 0:
        return "minus " + to_words(-number)
    if number >= 10**12:
        raise ValueError(f"{number} is too large")
    if number < 1000:
        return _below_thousand(number)
    parts = []
    for scale, name in _SCALES:
        count, number = divmod(number, scale)
        if count:
            parts.append(f"{_below_thousand(count)} {name}")
    if number:
        # "one thousand and five", but "one thousand two hundred"
        parts.append(("and " if number < 100 else "") + _below_thousand(number))
    return " ".join(parts)


def to_ordinal_words(number):
    """21 -> 'twenty-first', 100 -> 'one hundredth'."""
    words = to_words(number)
    head, sep, last = words.rpartition(" ")
    prefix, dash, unit = last.rpartition("-")
    if unit in _ORDINAL_EXCEPTIONS:
        unit = _ORDINAL_EXCEPTIONS[unit]
    elif unit.endswith("y"):
        unit = unit[:-1] + "ieth"
    else:
        unit += "th"
    return head + sep + prefix + dash + unit
