"""Money: a Decimal amount in one currency.

Amounts keep full precision while they are computed; ``rounded()`` brings them to cents
(half up, the way invoices are printed). Floats are refused on purpose: ``Money(0.1)`` would
carry binary noise into every total.
"""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .errors import CurrencyMismatch

CENT = Decimal("0.01")


def to_decimal(value):
    """Convert an int, str or Decimal to Decimal; floats raise TypeError."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"money amounts must be int, str or Decimal, not {type(value).__name__}")
    if isinstance(value, (int, str)):
        return Decimal(value)
    raise TypeError(f"cannot convert {value!r} to a money amount")


@dataclass(frozen=True)
class Money:
    """An amount of one currency."""

    amount: Decimal
    currency: str = "USD"

    def __post_init__(self):
        object.__setattr__(self, "amount", to_decimal(self.amount))
        object.__setattr__(self, "currency", self.currency.upper())

    @classmethod
    def zero(cls, currency="USD"):
        return cls(Decimal(0), currency)

    def _check(self, other):
        if not isinstance(other, Money):
            raise TypeError(f"expected Money, got {type(other).__name__}")
        if other.currency != self.currency:
            raise CurrencyMismatch(self.currency, other.currency)

    def __add__(self, other):
        if other == 0:
            return self
        self._check(other)
        return Money(self.amount + other.amount, self.currency)

    __radd__ = __add__

    def __sub__(self, other):
        self._check(other)
        return Money(self.amount - other.amount, self.currency)

    def __neg__(self):
        return Money(-self.amount, self.currency)

    def __mul__(self, factor):
        return Money(self.amount * to_decimal(factor), self.currency)

    __rmul__ = __mul__

    def __lt__(self, other):
        self._check(other)
        return self.amount < other.amount

    def __le__(self, other):
        self._check(other)
        return self.amount <= other.amount

    def __gt__(self, other):
        self._check(other)
        return self.amount > other.amount

    def __ge__(self, other):
        self._check(other)
        return self.amount >= other.amount

    def rounded(self):
        """This amount rounded to cents, half up."""
        return Money(self.amount.quantize(CENT, rounding=ROUND_HALF_UP), self.currency)

    def is_zero(self):
        return self.amount == 0

    def is_negative(self):
        return self.amount < 0

    def allocate(self, weights):
        """Split the rounded amount in proportion to ``weights``, to the cent.

        The parts always add up to the rounded amount: cents left over after rounding down go
        to the parts with the largest remainders (ties to the earliest part).
        """
        weights = [to_decimal(w) for w in weights]
        total_weight = sum(weights, Decimal(0))
        cents = int(self.rounded().amount / CENT)
        if total_weight == 0:
            raise ValueError("cannot allocate over zero total weight")
        raw = [Decimal(cents) * w / total_weight for w in weights]
        parts = [int(r) for r in raw]
        leftover = cents - sum(parts)
        step = 1 if leftover >= 0 else -1
        order = sorted(range(len(raw)), key=lambda i: (-(abs(raw[i] - parts[i])), i))
        for i in order[: abs(leftover)]:
            parts[i] += step
        return [Money(Decimal(p) * CENT, self.currency) for p in parts]

    def __str__(self):
        return f"{self.currency} {self.rounded().amount:,.2f}"


def total(amounts, currency):
    """Sum of ``amounts`` (Money of ``currency``); zero for an empty sequence."""
    result = Money.zero(currency)
    for amount in amounts:
        result = result + amount
    return result
