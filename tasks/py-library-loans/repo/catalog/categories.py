"""Item categories and their loan rules. Money is in cents."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Category:
    name: str
    loan_days: int
    daily_fee: int
    max_fee: int
    loanable: bool = True


CATEGORIES = {
    "book": Category("book", loan_days=21, daily_fee=25, max_fee=1000),
    "dvd": Category("dvd", loan_days=7, daily_fee=100, max_fee=1500),
    "magazine": Category("magazine", loan_days=7, daily_fee=10, max_fee=200),
    "reference": Category("reference", loan_days=0, daily_fee=0, max_fee=0, loanable=False),
}


def category_for(name):
    """The :class:`Category` called ``name``; ``KeyError`` for unknown names."""
    return CATEGORIES[name]
