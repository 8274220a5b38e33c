"""Read CSV exports into dicts with typed values."""
import csv
import io
from datetime import date
from decimal import Decimal, InvalidOperation

CURRENCY_SYMBOLS = "$€£"


def parse_amount(text):
    """Parse a money cell into a Decimal.

    Accepts currency symbols, thousands separators, a leading minus sign and the accounting
    notation for negatives, ``"(25.00)"``. Empty cells give ``None``.
    """
    cleaned = text.strip()
    if not cleaned:
        return None
    negative = False
    if cleaned.startswith("(") and cleaned.endswith(")"):
        cleaned = cleaned[1:-1].strip()
    if cleaned.startswith("-"):
        negative = True
        cleaned = cleaned[1:]
    cleaned = cleaned.strip(CURRENCY_SYMBOLS + " ").replace(",", "")
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValueError(f"not an amount: {text!r}") from None
    return -value if negative else value


def parse_date(text):
    """ISO dates (``2024-03-31``) become ``datetime.date``; empty cells give None."""
    text = text.strip()
    return date.fromisoformat(text) if text else None


def read_rows(text, amount_columns=("amount",), date_columns=("date",)):
    """Parse CSV text with a header row into a list of dicts.

    Header names are stripped and lower-cased; the listed amount and date columns are converted
    with :func:`parse_amount` and :func:`parse_date`, every other cell is a stripped string.
    """
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        return []
    rows = []
    for record in reader:
        if not any(cell.strip() for cell in record):
            continue
        row = {}
        for name, cell in zip(header, record):
            if name in amount_columns:
                row[name] = parse_amount(cell)
            elif name in date_columns:
                row[name] = parse_date(cell)
            else:
                row[name] = cell.strip()
        rows.append(row)
    return rows
