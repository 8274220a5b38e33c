from datetime import date
from decimal import Decimal

import pytest

from meterly.billing import BillingEngine
from meterly.customers import Customer
from meterly.plans import Catalog, MeteredPrice, Plan, Tier
from meterly.tax import TaxRate, TaxTable


class ScriptedGateway:
    """A gateway whose answers are scripted per customer (True unless told otherwise)."""

    def __init__(self):
        self.outcomes = {}
        self.charges = []

    def fail(self, customer_id, times=1):
        self.outcomes.setdefault(customer_id, []).extend([False] * times)

    def charge(self, customer, amount, invoice_id):
        self.charges.append((customer.id, amount, invoice_id))
        queue = self.outcomes.get(customer.id)
        return queue.pop(0) if queue else True


def make_catalog():
    catalog = Catalog()
    catalog.add(Plan("basic", "Basic", Decimal("20.00")))
    catalog.add(Plan("pro", "Pro", Decimal("50.00")))
    catalog.add(Plan("team", "Team", Decimal("12.00"), per_seat=True))
    catalog.add(Plan("annual", "Annual", Decimal("240.00"), interval="year"))
    catalog.add(Plan("trial", "Pro with trial", Decimal("50.00"), trial_days=14))
    catalog.add(
        Plan(
            "api",
            "API",
            Decimal("10.00"),
            metered=MeteredPrice(
                "requests",
                (Tier(1000, "0.01"), Tier(10000, "0.005"), Tier(None, "0.002")),
            ),
        )
    )
    catalog.add(
        Plan(
            "storage",
            "Storage",
            Decimal("0"),
            metered=MeteredPrice("gb", (Tier(100, "0.10"), Tier(None, "0.08")), mode="volume", aggregation="max"),
        )
    )
    catalog.add(Plan("eu-basic", "Basic (EUR)", Decimal("20.00"), currency="EUR"))
    return catalog


def make_taxes():
    table = TaxTable()
    table.add(TaxRate("US-NY", "0.08875", name="NY sales tax"))
    table.add(TaxRate("DE", "0.19", inclusive=True, name="VAT"))
    return table


@pytest.fixture
def catalog():
    return make_catalog()


@pytest.fixture
def gateway():
    return ScriptedGateway()


@pytest.fixture
def engine(catalog, gateway):
    engine = BillingEngine(catalog, gateway, tax_table=make_taxes())
    engine.customers.add(Customer("acme", "Acme Inc", "US-CA"))
    engine.customers.add(Customer("nyc", "Big Apple LLC", "US-NY", payment_terms_days=15))
    engine.customers.add(Customer("berlin", "Berlin GmbH", "DE", currency="EUR"))
    engine.customers.add(Customer("charity", "Food Bank", "US-NY", tax_exempt=True))
    return engine


@pytest.fixture
def jan1():
    return date(2024, 1, 1)
