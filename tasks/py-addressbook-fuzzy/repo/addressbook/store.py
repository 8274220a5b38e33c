"""In-memory storage of contacts."""
from .phone import normalize_phone


class DuplicateContact(ValueError):
    """A contact with the same key already exists."""


class AddressBook:
    """Contacts by key, in insertion order."""

    def __init__(self, contacts=()):
        self._contacts = {}
        for contact in contacts:
            self.add(contact)

    def add(self, contact):
        if contact.key in self._contacts:
            raise DuplicateContact(f"{contact.key} is already in the address book")
        contact.phone = normalize_phone(contact.phone)
        self._contacts[contact.key] = contact
        return contact

    def remove(self, key):
        del self._contacts[key.strip().lower()]

    def get(self, key):
        return self._contacts.get(key.strip().lower())

    def __iter__(self):
        return iter(self._contacts.values())

    def __len__(self):
        return len(self._contacts)

    def by_tag(self, tag):
        return [c for c in self if tag in c.tags]
