"""Summary statistics over a sequence of numbers."""


def mean(values):
    """Arithmetic mean; raises ValueError on an empty sequence."""
    values = list(values)
    if not values:
        raise ValueError("mean() of an empty sequence")
    return sum(values) / len(values)


def median(values):
    """Middle value of the sorted data; the mean of the two middle values when the count is even."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("median() of an empty sequence")
    middle = len(ordered) // 2
    return ordered[middle]


def summarize(values):
    """Return a dict with count, mean, median, min and max."""
    values = list(values)
    return {
        "count": len(values),
        "mean": mean(values),
        "median": median(values),
        "min": min(values),
        "max": max(values),
    }
