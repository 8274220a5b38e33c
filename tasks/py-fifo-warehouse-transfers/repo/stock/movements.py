"""Movements exported from the warehouse system as CSV.

    date,sku,kind,quantity,amount
    2025-01-03,BOLT-M6,receipt,100,0.12     amount = unit cost for receipts
    2025-01-05,BOLT-M6,sale,40,0.30         amount = unit price for sales
"""
import csv
import io
from dataclasses import dataclass
from datetime import date

KINDS = ("receipt", "sale")


@dataclass(frozen=True)
class Movement:
    day: date
    sku: str
    kind: str
    quantity: int
    amount: float  # unit cost (receipt) or unit price (sale)


def parse_movements(text):
    """Movements in file order. Errors name the 1-based data row."""
    reader = csv.DictReader(io.StringIO(text.strip()))
    movements = []
    for number, row in enumerate(reader, start=1):
        try:
            kind = row["kind"].strip().lower()
            if kind not in KINDS:
                raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
            movements.append(
                Movement(
                    day=date.fromisoformat(row["date"].strip()),
                    sku=row["sku"].strip(),
                    kind=kind,
                    quantity=int(row["quantity"]),
                    amount=float(row["amount"]),
                )
            )
        except (KeyError, ValueError, AttributeError) as exc:
            raise ValueError(f"row {number}: {exc}") from None
    return movements
