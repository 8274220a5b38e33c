import pytest

from mailcheck import AddressError, canonical, is_valid, normalize, split_address, validate


def test_split_simple_address():
    assert split_address("ann@example.com") == ("ann", "example.com")


def test_valid_addresses():
    for address in ["ann@example.com", "first.last@mail.example.org", "x+tag@sub.example.co.uk",
                    '"john smith"@example.com', "o'brien@example.ie"]:
        assert is_valid(address), address


def test_invalid_addresses():
    for address in ["plainaddress", "@example.com", "ann@", "ann@localhost", "a..b@example.com",
                    "ann@-example.com", "ann@example.123", 'a"b@example.com']:
        assert not is_valid(address), address


def test_error_reason():
    with pytest.raises(AddressError) as info:
        validate("ann@localhost")
    assert info.value.reason == "no_tld"


def test_normalize_keeps_local_case():
    assert normalize("  John.Doe@Example.COM. ") == "John.Doe@example.com"


def test_canonical_gmail():
    assert canonical("John.Doe+news@GoogleMail.com") == "johndoe@gmail.com"


def test_canonical_unknown_domain_untouched():
    assert canonical("John.Doe+news@example.com") == "John.Doe+news@example.com"
