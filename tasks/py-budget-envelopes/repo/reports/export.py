"""CSV export of a budget's history."""


def csv_rows(history):
    """Rows ``[month, envelope, opening, allocated, spent, closing, carried]`` with a header."""
    rows = [["month", "envelope", "opening", "allocated", "spent", "closing", "carried"]]
    for result in history:
        for name in result.allocated:
            rows.append([result.month, name] + [
                f"{getattr(result, col)[name]:.2f}"
                for col in ("opening", "allocated", "spent", "closing", "carried")])
    return rows
