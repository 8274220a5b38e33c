"""addressbook: contacts, their storage and lookup."""
from .models import Contact
from .phone import normalize_phone
from .store import AddressBook, DuplicateContact

__all__ = ["AddressBook", "Contact", "DuplicateContact", "normalize_phone"]
