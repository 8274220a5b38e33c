"""In-memory catalogue data for the example shop."""

PRODUCTS = {
    1: {"id": 1, "name": "Kettle", "category": "kitchen", "price": 2999},
    2: {"id": 2, "name": "Toaster", "category": "kitchen", "price": 3499},
    3: {"id": 3, "name": "Desk lamp", "category": "office", "price": 1999},
}
REVIEWS = {1: ["Boils fast."], 2: [], 3: ["Bright!", "A bit wobbly."]}
DOCS = {"shipping/europe": "Ships in 3-5 days.", "returns": "30 days, no questions asked."}


def by_category(category):
    return [p for p in PRODUCTS.values() if p["category"] == category]
