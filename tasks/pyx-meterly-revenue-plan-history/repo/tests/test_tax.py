import pytest

from meterly.customers import Customer
from meterly.money import Money
from meterly.tax import TaxRate

from .conftest import make_taxes


def test_exclusive_tax_is_added_on_top():
    rate = TaxRate("US-NY", "0.08875")
    assert rate.tax_on(Money("100.00")) == Money("8.88")


def test_inclusive_tax_is_extracted():
    rate = TaxRate("DE", "0.19", inclusive=True)
    assert rate.tax_on(Money("119.00")) == Money("19.00")
    assert rate.tax_on(Money("20.00")) == Money("3.19")


def test_rate_for_customer():
    table = make_taxes()
    assert table.rate_for(Customer("a", "A", "US-NY")).name == "NY sales tax"
    assert table.rate_for(Customer("b", "B", "US-CA")) is None
    assert table.rate_for(Customer("c", "C", "US-NY", tax_exempt=True)) is None


def test_rate_bounds():
    with pytest.raises(ValueError):
        TaxRate("X", "1.5")
