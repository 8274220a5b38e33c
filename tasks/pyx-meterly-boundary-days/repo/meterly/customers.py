"""Customers: who pays, in which currency and tax region."""

from dataclasses import dataclass, field

from .errors import UnknownCustomer


@dataclass
class Customer:
    id: str
    name: str
    region: str
    currency: str = "USD"
    tax_exempt: bool = False
    payment_terms_days: int = 0
    email: str = ""


@dataclass
class CustomerBook:
    customers: dict = field(default_factory=dict)

    def add(self, customer):
        if customer.id in self.customers:
            raise ValueError(f"customer {customer.id!r} already exists")
        self.customers[customer.id] = customer
        return customer

    def get(self, customer_id):
        try:
            return self.customers[customer_id]
        except KeyError:
            raise UnknownCustomer(f"no customer {customer_id!r}") from None

    def __iter__(self):
        return iter(self.customers.values())
