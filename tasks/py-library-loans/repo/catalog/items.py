"""Catalog items."""
from dataclasses import dataclass

from .categories import category_for


@dataclass(frozen=True)
class Item:
    barcode: str
    title: str
    category_name: str

    @property
    def category(self):
        return category_for(self.category_name)
