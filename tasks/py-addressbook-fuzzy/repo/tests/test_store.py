import pytest

from addressbook import Contact, DuplicateContact, normalize_phone


def test_phone_normalization():
    assert normalize_phone("020 7946 0018") == "+442079460018"
    assert normalize_phone("+34 600-123-456") == "+34600123456"
    assert normalize_phone("0044 161 496 0000") == "+441614960000"
    assert normalize_phone("") == ""


def test_add_normalizes_phone(book):
    assert book.get("JMW@example.org").phone == "+442079460018"


def test_duplicates_rejected(book):
    with pytest.raises(DuplicateContact):
        book.add(Contact("Jose N", "Jose@Example.es"))


def test_remove_and_tags(book):
    book.remove("ann@example.com")
    assert len(book) == 4
    assert [c.name for c in book.by_tag("work")] == ["José Núñez", "Lemon Fruit Co"]
