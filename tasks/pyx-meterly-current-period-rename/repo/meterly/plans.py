"""Plans and their prices.

A plan has a recurring base price (per seat when ``per_seat`` is set) and optionally one metered
component billed from usage at the end of each period. Metered prices are tiered:

* ``graduated``: each unit is priced by the tier it falls in (units 1-100 at one price, 101-1000
  at the next, ...), and every tier reached adds its flat fee;
* ``volume``: the tier of the total quantity prices every unit, plus that tier's flat fee.

A tier's ``up_to`` is inclusive; the last tier has ``up_to=None`` (no limit).
"""

from dataclasses import dataclass, field
from decimal import Decimal

from .errors import UnknownPlan
from .money import Money, to_decimal

INTERVAL_MONTHS = {"month": 1, "quarter": 3, "year": 12}
AGGREGATIONS = ("sum", "max", "last")


@dataclass(frozen=True)
class Tier:
    up_to: int | None
    unit_price: Decimal
    flat_fee: Decimal = Decimal(0)

    def __post_init__(self):
        object.__setattr__(self, "unit_price", to_decimal(self.unit_price))
        object.__setattr__(self, "flat_fee", to_decimal(self.flat_fee))


@dataclass(frozen=True)
class MeteredPrice:
    """How usage of one metric is aggregated over a period and priced."""

    metric: str
    tiers: tuple
    mode: str = "graduated"
    aggregation: str = "sum"

    def __post_init__(self):
        if self.mode not in ("graduated", "volume"):
            raise ValueError(f"unknown tier mode {self.mode!r}")
        if self.aggregation not in AGGREGATIONS:
            raise ValueError(f"unknown aggregation {self.aggregation!r}")
        if not self.tiers or self.tiers[-1].up_to is not None:
            raise ValueError("the last tier must be unbounded (up_to=None)")
        bounds = [t.up_to for t in self.tiers[:-1]]
        if bounds != sorted(bounds) or len(set(bounds)) != len(bounds):
            raise ValueError("tier bounds must increase")
        object.__setattr__(self, "tiers", tuple(self.tiers))

    def price(self, units):
        """Price of ``units`` (a Decimal or int quantity) as a Decimal."""
        units = to_decimal(units)
        if units <= 0:
            return Decimal(0)
        if self.mode == "volume":
            tier = self._tier_for(units)
            return units * tier.unit_price + tier.flat_fee
        amount = Decimal(0)
        lower = Decimal(0)
        for tier in self.tiers:
            upper = units if tier.up_to is None else min(units, Decimal(tier.up_to))
            if upper > lower:
                amount += (upper - lower) * tier.unit_price + tier.flat_fee
            if tier.up_to is None or units <= tier.up_to:
                break
            lower = Decimal(tier.up_to)
        return amount

    def _tier_for(self, units):
        for tier in self.tiers:
            if tier.up_to is None or units <= tier.up_to:
                return tier
        return self.tiers[-1]


@dataclass(frozen=True)
class Plan:
    code: str
    name: str
    base_price: Decimal
    currency: str = "USD"
    interval: str = "month"
    per_seat: bool = False
    metered: MeteredPrice | None = None
    trial_days: int = 0

    def __post_init__(self):
        if self.interval not in INTERVAL_MONTHS:
            raise ValueError(f"unknown interval {self.interval!r}")
        object.__setattr__(self, "base_price", to_decimal(self.base_price))

    @property
    def months(self):
        """Length of one billing period in months."""
        return INTERVAL_MONTHS[self.interval]

    def recurring_amount(self, quantity=1):
        """The base charge of one full period."""
        seats = quantity if self.per_seat else 1
        return Money(self.base_price * seats, self.currency)

    def monthly_amount(self, quantity=1):
        """The base charge spread over one month (for MRR), not rounded."""
        return self.recurring_amount(quantity) * (Decimal(1) / Decimal(self.months))

    def usage_amount(self, units):
        """The metered charge for ``units`` of usage (zero without a metered price)."""
        if self.metered is None:
            return Money.zero(self.currency)
        return Money(self.metered.price(units), self.currency)


@dataclass
class Catalog:
    """The plans on sale, by code."""

    plans: dict = field(default_factory=dict)

    def add(self, plan):
        if plan.code in self.plans:
            raise ValueError(f"plan {plan.code!r} already exists")
        self.plans[plan.code] = plan
        return plan

    def get(self, code):
        try:
            return self.plans[code]
        except KeyError:
            raise UnknownPlan(f"no plan {code!r}; known plans: {', '.join(sorted(self.plans))}") from None

    def __contains__(self, code):
        return code in self.plans

    def __iter__(self):
        return iter(self.plans.values())
