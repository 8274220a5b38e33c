import pytest

from addressbook import AddressBook, Contact


@pytest.fixture
def book():
    return AddressBook([
        Contact("José Núñez", "jose@example.es", "+34 600 123 456", "Sevilla", ["work"]),
        Contact("Joseph Mallord", "jmw@example.org", "020 7946 0018", "London"),
        Contact("Siobhán O'Brien", "siobhan@example.ie", "", "Dublin", ["family"]),
        Contact("Lemon Fruit Co", "orders@lemon.example", "", "Leeds", ["work"]),
        Contact("Ann Lee", "ann@example.com", "0044 161 496 0000", "Manchester"),
    ])
