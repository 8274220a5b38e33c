"""The catalog: items and their categories."""
from .categories import CATEGORIES, Category, category_for
from .items import Item

__all__ = ["CATEGORIES", "Category", "Item", "category_for"]
